// Figma relay figures, on the emulator suite (`npm run bench -- figma`):
// 1. the round trip of a tool call through the relay (MCP client → figma function → Firestore →
//    plugin long-poll → plugin → result post → tool → client; target < 300 ms median);
// 2. 20 concurrent commands across 5 rooms: each creates a uniquely named text layer; every file
//    must end with exactly its own 4 layers, and no command may be left in Firestore.
// Plugins are real plugin processes (test/figma/plugin-process.ts) paired through the device flow.
//
// The Functions emulator serves one request per worker process and cold-starts a new process for
// each concurrent request; a busy 2-core machine cannot start 25 at once (they fail to load), so
// for (2) the tool side runs in this process with the function's own relay code (relay.ts: file
// the command, wait on Firestore) while the plugins poll and answer through the real function.
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
  for (let i = 1; i <= 5; i++) plugins.push(await openPlugin(user, { fileName: `Bench file ${i}`, keepaliveSeconds: 5 }));
  const agent = await figmaClient(user);
  const room = plugins[0]!.roomId;
  const call = async (args: Record<string, unknown>) =>
    (await agent.callTool({ name: "get_selection", arguments: args }, { timeout: 300_000 })) as CallToolResult;

  // 1. Round trip through MCP, one call at a time.
  for (let i = 0; i < 5; i++) await call({ sessionId: room });
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t = performance.now();
    const r = await call({ sessionId: room });
    times.push(performance.now() - t);
    if (r.isError) throw new Error(textOf(r));
  }
  console.log(`round trip get_selection through MCP (60 calls): median ${ms(median(times))}, p90 ${ms(pct(times, 0.9))}, min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}  [target < 300 ms median]`);

  // 2. 20 concurrent commands across 5 rooms.
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
