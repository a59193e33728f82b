// Figma relay figures, on the emulator suite (`npm run bench -- figma`): the round trip of a tool
// call through the relay (MCP client → figma function → Firestore → plugin long-poll → plugin →
// result post → tool → client; target < 300 ms median), and 20 concurrent commands across 5 rooms
// (each creates a uniquely named text layer; every file must end with exactly its own 4 layers).
// Plugins are real plugin processes (test/figma/plugin-process.ts) paired through the device flow.
import { createUser } from "../test/support/emulators.js";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { PluginProcess } from "../test/figma/plugin.js";
import { figmaClient, openPlugin, stopAllPlugins, structured, textOf } from "../test/figma/support.js";

type Agent = Awaited<ReturnType<typeof figmaClient>>;
// The emulator serves one request per worker process and starts a new process for each concurrent
// request: the first burst pays for those cold starts, hence the generous client timeout and the
// warm-up burst (Cloud Run serves 80 requests per instance).
const callTool = async (agent: Agent, name: string, args: Record<string, unknown>) =>
  (await agent.callTool({ name, arguments: args }, { timeout: 300_000 })) as CallToolResult;

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

  // Round trip, one at a time.
  for (let i = 0; i < 5; i++) await callTool(agent, "get_selection", { sessionId: room });
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t = performance.now();
    const r = await callTool(agent, "get_selection", { sessionId: room });
    times.push(performance.now() - t);
    if (r.isError) throw new Error(textOf(r));
  }
  console.log(`round trip get_selection (60 calls): median ${ms(median(times))}, p90 ${ms(pct(times, 0.9))}, min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}  [target < 300 ms median]`);

  // 20 concurrent commands across 5 rooms, after warm-up bursts of 5, 10 and 20 (so the emulator's
  // worker processes exist before the measured burst).
  for (const n of [5, 10, 20]) {
    const t = performance.now();
    await Promise.all(Array.from({ length: n }, (_, i) => callTool(agent, "get_selection", { sessionId: plugins[i % 5]!.roomId })));
    console.log(`  warm-up burst of ${n}: ${ms(performance.now() - t)}`);
  }
  const started = performance.now();
  const calls = Array.from({ length: 20 }, (_, i) => {
    const p = plugins[i % 5]!;
    const token = `bench-${i}-${p.roomId.slice(-6)}`;
    return callTool(agent, "create_text", { sessionId: p.roomId, x: 0, y: i * 20, text: token }).then((r) => ({ r, p, token }));
  });
  const results = await Promise.all(calls);
  const wall = performance.now() - started;
  const failed = results.filter(({ r }) => r.isError);
  const misrouted = results.filter(({ r, p }) => !r.isError && structured(r).sessionId !== p.roomId);
  let lost = 0;
  let foreign = 0;
  for (const p of plugins) {
    const seen = texts((await p.dump()) as Node).filter((t) => t.startsWith("bench-"));
    const mine = results.filter((x) => x.p === p).map((x) => x.token);
    lost += mine.filter((t) => !seen.includes(t)).length;
    foreign += seen.filter((t) => !mine.includes(t)).length;
  }
  console.log(
    `20 concurrent create_text across 5 rooms: ${ms(wall)} wall, ${20 - failed.length}/20 ok, ${lost} lost, ${foreign} delivered to the wrong file, ${misrouted.length} answered for the wrong room` +
      (failed.length ? `\n  first failure: ${textOf(failed[0]!.r)}` : ""),
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
