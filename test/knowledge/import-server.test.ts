// `npm run kb:import -- --server <knowledge URL>`: the person imports from a terminal without the
// project's credentials. The script pairs as a kb-import device (the person confirms the code,
// signed in, as for the agent), sends the files to the served knowledge function, which imports
// them with the deployment's embedder; the same import again changes nothing; the notes are
// found by search; another person sees none of it; each run's pairing is revoked when it ends.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "vitest";
import { adminDb, createUser } from "../support/emulators.js";
import { confirmUserCode } from "../support/devices.js";
import { callTool, connect } from "../support/mcp.js";
import { functionUrl } from "../support/emulators.js";
import { EXPECTED, writeCorpus } from "./corpus.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs the script; confirms its code as `confirm` says; resolves with its exit code and output. */
function runImport(args: string[], confirm: (code: string) => Promise<void>): Promise<{ status: number; out: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.FIRESTORE_EMULATOR_HOST; // the person has no database access: only the URL
    delete env.GOOGLE_APPLICATION_CREDENTIALS;
    const child = spawn(join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/kb-import.ts", ...args], { cwd: ROOT, env });
    let out = "";
    let confirmed = false;
    const onData = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const code = /confirm the code\s+(\S+)/.exec(out)?.[1];
      if (code && !confirmed) {
        confirmed = true;
        confirm(code).catch(reject);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("close", (status) => resolve({ status: status ?? 1, out }));
  });
}

test("a person imports a folder of every format from a terminal, signed in as themself; again, nothing changes", async () => {
  const [alice, bob] = await Promise.all([createUser(), createUser()]);
  const corpus = await writeCorpus();
  const first = await runImport(["--server", functionUrl("knowledge"), corpus.dir], (code) => confirmUserCode(alice, code));
  expect(first.out).toContain(`Done: ${EXPECTED.documents} new, 0 updated, 0 unchanged document(s); 2 file(s) skipped.`);
  expect(first.out).toMatch(/SKIPPED .*: not a text file/);
  expect(first.out).toMatch(/SKIPPED .*Readwise/);
  expect(first.status).toBe(1); // files were skipped, as the operator's form says too

  const again = await runImport(["--server", functionUrl("knowledge"), corpus.dir], (code) => confirmUserCode(alice, code));
  expect(again.out).toContain(`Done: 0 new, 0 updated, ${EXPECTED.documents} unchanged document(s); 2 file(s) skipped.`);
  // Each run's pairing ends with it: nothing stays connected on /apps.
  const devices = await adminDb().collection("devices").where("uid", "==", alice.uid).get();
  expect(devices.size).toBe(2);
  expect(devices.docs.every((d) => d.get("revokedAt"))).toBe(true);

  const client = await connect("knowledge", { token: alice.token });
  const found = (await callTool(client, "search_semantic", { query: "Caffeine lingers in the blood", mode: "lexical", limit: 3 })).structuredContent as { results: { title: string; source: string }[] };
  expect(found.results[0]).toMatchObject({ title: "Sleep Well", source: "kindle" });
  await client.close();
  const bobs = await connect("knowledge", { token: bob.token });
  expect((await callTool(bobs, "get_stats")).structuredContent).toMatchObject({ total_chunks: 0 });
  await bobs.close();
});

test("without a server URL, or with a URL that is no knowledge function, it says what to give", async () => {
  const none = await runImport(["--server"], async () => undefined);
  expect(none.status).toBe(2);
  expect(none.out).toContain("npm run kb:import -- --server <knowledge URL> <files or folders…>");
  const mermaid = await runImport(["--server", functionUrl("mermaid"), "notes/"], async () => undefined);
  expect(mermaid.status).toBe(1);
  expect(mermaid.out).toMatch(/Import failed: .*does not ask for sign-in.*the URL of your knowledge function/);
});
