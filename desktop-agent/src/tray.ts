// The tray icon (systray2) where the desktop has a tray: status line, "Pause captures", "Quit".
// Without a tray (Xvfb, a server, a failed helper) the agent runs in console mode: start()
// resolves to undefined and nothing else changes.
import type { ChildProcess } from "node:child_process";
import type { AgentStatus } from "./agent.js";

// 16×16 camera glyph (PNG; systray2 accepts PNG on Linux/macOS and ICO on Windows, where the
// helper falls back to its default icon if this cannot be shown).
const ICON =
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAACXBIWXMAAAsTAAALEwEAmpwYAAAAsklEQVQ4jWNgGJRAO2fDf2yYdgbo5Gzw1spZ/wSXRnSslb3hsWbOOk+4AVrZGx4TqxluSM6GRzidbJC/6f/c3bf+v/r4/f/LD9//z9l1CyyG00vaaBIgDX///fu/+dQjMP737z9YjGgDXn38DtYI428+/fj/648/iDfg5QdMA16+/06aF/79+w/WuOX0YzB7NileMMjfBDYE5BKiAlGL0mgEJQpSDAFp1sra6EF00qYpAABRu3koKaWhJAAAAABJRU5ErkJggg==";

export interface Tray {
  update(status: AgentStatus): void;
  close(): Promise<void>;
}

export async function startTray(handlers: { togglePause(): void; quit(): void }, log: (line: string) => void): Promise<Tray | undefined> {
  if (process.env.FOTOS_AGENT_NO_TRAY === "1") return undefined;
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return undefined;
  try {
    // systray2 is CommonJS with `exports.default`: under ESM import that is `default.default`.
    const mod = (await import("systray2")) as unknown as { default: { default?: unknown } };
    const SysTray = (mod.default.default ?? mod.default) as typeof import("systray2").default;
    const statusItem = { title: "Fotos agent: starting", tooltip: "status", enabled: false };
    const pauseItem = { title: "Pause captures", tooltip: "Refuse capture requests until resumed", checked: false, enabled: true };
    const quitItem = { title: "Quit", tooltip: "Stop the agent", enabled: true };
    const tray = new SysTray({
      menu: { icon: ICON, title: "", tooltip: "Fotos agent", items: [statusItem, pauseItem, quitItem] },
      copyDir: true,
    });
    // No tray host, or the helper cannot start (missing libraries): it never gets ready; fall back.
    const ready = await Promise.race([
      tray.ready().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
    ]);
    if (!ready) {
      // Not tray.kill(): it waits for an exit that already happened.
      (tray.process as ChildProcess | null)?.kill();
      log("no tray available; console mode");
      return undefined;
    }
    tray.onExit(() => log("the tray helper exited; the agent keeps running in console mode"));
    await tray.onClick((action) => {
      if (action.item.title === quitItem.title) handlers.quit();
      else if (action.seq_id === 1) handlers.togglePause();
    });
    log("tray icon shown");
    return {
      update(status) {
        const text = `Fotos agent: ${status.connected ? (status.paused ? "paused" : "online") : "offline"}${status.display ? "" : " (no display)"}`;
        void tray.sendAction({ type: "update-item", item: { ...statusItem, title: text }, seq_id: 0 }).catch(() => undefined);
        void tray.sendAction({ type: "update-item", item: { ...pauseItem, checked: status.paused }, seq_id: 1 }).catch(() => undefined);
      },
      close: () => Promise.race([tray.kill(false).catch(() => undefined), new Promise<void>((r) => setTimeout(r, 1000))]),
    };
  } catch (err) {
    log(`no tray (${(err as Error).message}); console mode`);
    return undefined;
  }
}
