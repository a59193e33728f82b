// The Functions emulator starts one worker process per concurrent request (it has no
// concurrency), so a burst of 50 clients becomes 50 processes each loading its domain, and a
// per-process gate never sees more than one request. There, the bound is kept across processes:
// a slot is a file created exclusively ("wx") in a directory shared by one emulator suite's
// workers of one function; a slot whose process has died is reclaimed. Past the bound a request
// waits briefly for a slot, then is answered busy, before it loads anything.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Admission, Admitter, GateOptions } from "./guards.js";

const POLL_MS = 50;

export class MachineGate implements Admitter {
  private readonly dir: string;
  constructor(
    readonly options: GateOptions,
    scope: string,
  ) {
    this.dir = join(tmpdir(), "mcp-suite-gates", createHash("sha256").update(scope).digest("hex").slice(0, 16));
  }

  async enter(signal?: AbortSignal): Promise<Admission> {
    const deadline = Date.now() + this.options.maxWaitMs;
    for (;;) {
      const release = this.claim();
      if (release) return { admitted: true, release };
      if (signal?.aborted || Date.now() >= deadline) return { admitted: false, reason: "waited too long" };
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  tryEnter(): (() => void) | undefined {
    return this.claim();
  }

  private claim(): (() => void) | undefined {
    mkdirSync(this.dir, { recursive: true });
    for (let i = 0; i < this.options.maxInFlight; i++) {
      const file = join(this.dir, `slot-${i}`);
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          writeFileSync(file, String(process.pid), { flag: "wx" });
          let released = false;
          return () => {
            if (released) return;
            released = true;
            rmSync(file, { force: true });
          };
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "EEXIST" || !abandoned(file)) break;
          rmSync(file, { force: true }); // its process is gone: reclaim, then try once more
        }
      }
    }
    return undefined;
  }
}

/** Whether the slot file's process is gone (so the slot may be reclaimed). */
function abandoned(file: string): boolean {
  try {
    const pid = Number(readFileSync(file, "utf8"));
    if (!Number.isInteger(pid) || pid <= 0) return false; // being written right now
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}
