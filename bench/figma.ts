// Figma relay figures, on the emulator suite (`npm run bench -- figma`):
// 1. the round trip of a tool call through the relay (MCP client → figma function → Firestore →
//    plugin → result post → tool → client), with the plugin listening in Firestore (and its claim)
//    and with it long-polling, calls interleaved (target ≤ 150 ms median listening);
// 2. get_design_context on the pricing card of test/figma/fixtures.ts (nested auto-layout, text
//    styles, variables in two modes, a component instance) as JSON and as HTML + CSS, beside (1);
// 3. 20 concurrent commands across 5 rooms: each creates a uniquely named text layer; every file
//    must end with exactly its own 4 layers, and no command may be left in Firestore;
// 4. how long a tool waits on a plugin that died holding its command (target ≤ ~10 s);
// 5. what an open, idle plugin holds at the function: the time one of its requests is in flight,
//    per idle hour (on Cloud Run a held request bills its instance), long-polling (before) and
//    listening in Firestore (after), side by side over the same window.
// Plugins are real plugin processes (test/figma/plugin-process.ts) paired through the device flow.
//
// The Functions emulator serves one request per worker process and cold-starts a new process for
// each concurrent request; a busy 2-core machine cannot start 25 at once (they fail to load), so
// for (3) the tool side runs in this process with the function's own relay code (relay.ts: file
// the command, wait on Firestore) while the plugins (listening) claim and answer through the real function.
// Cloud Run serves 80 concurrent requests per instance and has no such limit.
import type { CallToolResult } from "@modelcontextprotocol/client";
import { createUser } from "../test/support/emulators.js";
import type { PluginProcess } from "../test/figma/plugin.js";
import { figmaClient, openPlugin, stopAllPlugins, textOf } from "../test/figma/support.js";
import { runCommand } from "../functions/src/domains/figma/relay.js";
import { commandsOf, sessionRef, toSession } from "../functions/src/domains/figma/store.js";
import { log } from "../functions/src/core/log.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

type Node = { name: string; characters?: string; children?: Node[] };
const texts = (n: Node): string[] => [...(n.characters !== undefined ? [n.characters] : []), ...(n.children ?? []).flatMap(texts)];

async function main(): Promise<void> {
  const user = await createUser();
  const plugins: PluginProcess[] = [];
  for (let i = 1; i <= 5; i++) plugins.push(await openPlugin(user, { fileName: `Bench file ${i}`, ...(i === 1 ? { fixtures: ["design" as const] } : {}) }));
  const agent = await figmaClient(user);
  const room = plugins[0]!.roomId;
  const call = async (args: Record<string, unknown>, name = "get_selection") =>
    (await agent.callTool({ name, arguments: args }, { timeout: 300_000 })) as CallToolResult;

  // 1. Round trip through MCP, one call at a time, alternating a listening and a polling plugin.
  const polling = await openPlugin(user, { fileName: "Bench polling", listen: "off" });
  const modes = [plugins[0]!, polling].map((p) => (p.messages.find((m) => m.type === "state" && (m.state as { status: string }).status === "connected")!.state as { mode: string }).mode);
  if (modes.join() !== "listening,polling") throw new Error(`the plugins are ${modes.join(" and ")}, not listening and polling`);
  for (let i = 0; i < 5; i++) for (const sessionId of [room, polling.roomId]) await call({ sessionId });
  const times: number[] = [];
  const polled: number[] = [];
  for (let i = 0; i < 60; i++) {
    for (const [sessionId, into] of [[room, times], [polling.roomId, polled]] as const) {
      const t = performance.now();
      const r = await call({ sessionId });
      into.push(performance.now() - t);
      if (r.isError) throw new Error(textOf(r));
    }
  }
  const line = (xs: number[]) => `median ${ms(median(xs))}, p90 ${ms(pct(xs, 0.9))}, min ${ms(Math.min(...xs))}, max ${ms(Math.max(...xs))}`;
  console.log(`round trip get_selection through MCP, plugin listening in Firestore (60 calls): ${line(times)}  [target ≤ 150 ms median]`);
  console.log(`round trip get_selection through MCP, plugin long-polling (60 calls, interleaved): ${line(polled)} (listening/polling median ${(median(times) / median(polled)).toFixed(2)}×)`);

  // 2. get_design_context on the pricing card (9 layers), JSON and HTML + CSS.
  for (const format of ["json", "html"]) {
    const args = { sessionId: room, nodeId: "5:1", format };
    for (let i = 0; i < 3; i++) await call(args, "get_design_context");
    const t: number[] = [];
    let chars = 0;
    for (let i = 0; i < 30; i++) {
      const start = performance.now();
      const r = await call(args, "get_design_context");
      t.push(performance.now() - start);
      if (r.isError) throw new Error(textOf(r));
      chars = textOf(r).length;
    }
    console.log(
      `get_design_context ${format} on the pricing card through MCP (30 calls): median ${ms(median(t))}, p90 ${ms(pct(t, 0.9))} ` +
        `(${(median(t) / median(times)).toFixed(2)}× get_selection's median; answer ${chars} characters)`,
    );
  }

  // 3. 20 concurrent commands across 5 rooms.
  const ctx = { caller: undefined, requestId: "bench", query: {}, clientIp: "127.0.0.1", log, signal: new AbortController().signal, progress: async () => undefined };
  const sessions = await Promise.all(plugins.map(async (p) => toSession((await sessionRef(p.roomId).get()).data()!)));
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const p = plugins[i % 5]!;
      const token = `bench-${i}-${p.roomId.slice(-6)}`;
      const t = performance.now();
      try {
        const result = (await runCommand(ctx, sessions[i % 5]!, "create_text", { x: 0, y: i * 20, text: token })) as { created?: { characters?: string } };
        return { p, token, ok: result.created?.characters === token, ms: performance.now() - t, error: undefined as string | undefined };
      } catch (err) {
        return { p, token, ok: false, ms: performance.now() - t, error: String(err) };
      }
    }),
  );
  const wall = performance.now() - started;
  const failed = results.filter((r) => !r.ok);
  let lost = 0;
  let foreign = 0;
  for (const p of plugins) {
    const seen = texts((await p.dump()) as Node).filter((t) => t.startsWith("bench-"));
    const mine = results.filter((x) => x.p === p).map((x) => x.token);
    lost += mine.filter((t) => !seen.includes(t)).length;
    foreign += seen.filter((t) => !mine.includes(t)).length;
  }
  const left = (await Promise.all(plugins.map((p) => commandsOf(p.roomId).get()))).reduce((n, q) => n + q.size, 0);
  console.log(
    `20 concurrent create_text across 5 rooms (relay): ${ms(wall)} wall, per command median ${ms(median(results.map((r) => r.ms)))}, ` +
      `${20 - failed.length}/20 ok, ${lost} lost, ${foreign} delivered to the wrong file, ${left} commands left in Firestore` +
      (failed.length ? `\n  first failure: ${failed[0]!.error ?? "wrong answer"}` : ""),
  );

  // 4. A plugin dies holding a command: how long until the tool says so.
  const doomed = await openPlugin(user, { fileName: "Bench crash", dieOnTool: "delete_node" });
  const crash = call({ sessionId: doomed.roomId, nodeId: "1:4" }, "delete_node");
  await doomed.next((m) => m.type === "command");
  const died = performance.now();
  const crashed = await crash;
  console.log(
    `plugin killed holding a command: the tool answered ${((performance.now() - died) / 1000).toFixed(1)} s later ` +
      `(${crashed.isError && /stopped responding/.test(textOf(crashed)) ? "stopped responding" : `unexpected: ${textOf(crashed).slice(0, 120)}`})  [target ≤ ~10 s]`,
  );

  // 5. Open plugins left idle, one long-polling (before) and one listening (after), over the same
  // window: the time a request of each is held at the function, per idle hour; and the listening
  // one's keep-alive writes (its session's lastSeenAt, read back as it moves).
  const idlePoll = await openPlugin(user, { fileName: "Bench idle polling", listen: "off" });
  const idleListen = await openPlugin(user, { fileName: "Bench idle listening" });
  const IDLE_MS = 30_000;
  const from = Date.now();
  const stamps = new Set<number>();
  const unwatch = sessionRef(idleListen.roomId).onSnapshot((snap) => {
    const at = snap.get("lastSeenAt")?.toMillis?.() as number | undefined;
    if (at && at >= from) stamps.add(at);
  });
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const to = Date.now();
  unwatch();
  for (const [label, idle] of [["long-polling (before)", idlePoll], ["listening in Firestore (after)", idleListen]] as const) {
    const before = idle.messages.length;
    idle.child.send({ type: "net" });
    const net = (await idle.next((m) => m.type === "net" && idle.messages.indexOf(m) >= before)).requests as [number, number, string][];
    // The union of in-flight intervals inside the window (overlapping requests bill the instance once).
    let covered = 0;
    let reach = from;
    for (const [a, b] of net.map(([a, b]) => [Math.max(a, from), Math.min(b < 0 ? to : b, to)] as const).filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0])) {
      if (b <= reach) continue;
      covered += b - Math.max(a, reach);
      reach = b;
    }
    const perHour = (covered / (to - from)) * 3600;
    console.log(
      `an open, idle plugin ${label} (${IDLE_MS / 1000} s, ${net.filter(([a, b]) => a >= from || b < 0 || b > from).length} requests to the function): a request held there ${((covered / (to - from)) * 100).toFixed(1)} % of the time = ` +
        `${perHour.toFixed(0)} instance-seconds per idle hour` +
        (idle === idleListen ? `; ${stamps.size} keep-alive writes to its session = ${Math.round((stamps.size / (to - from)) * 3_600_000)} per idle hour` : ""),
    );
  }

  await agent.close();
  await stopAllPlugins();
}

main().then(
  () => process.exit(0),
  async (err) => {
    console.error(err);
    await stopAllPlugins();
    process.exit(1);
  },
);
