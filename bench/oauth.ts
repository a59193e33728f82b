// What OAuth costs per MCP request: token verification warm (our access tokens: signature + grant
// still active + account state; Firebase ID tokens: the path programmatic clients use), measured
// in-process on the same run, then a whole tools/list round trip through the Functions emulator
// with each kind of token. Target (issue 8): < 5 ms warm for our tokens.
//   npm run bench -- oauth
process.env.FUNCTIONS_EMULATOR = "true"; // the verifier derives URLs the way the emulator serves them
import { createUser, functionUrl } from "../test/support/emulators.js";
import { pairDevice } from "../test/support/devices.js";

const { CallerVerifier } = await import("../functions/src/auth/verify.js");
const { device, SIGNED_IN } = await import("../functions/src/auth/policy.js");

const N = Number(process.env.BENCH_ITERATIONS ?? 500);

const issuer = functionUrl("oauth");

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const fmt = (x: number) => `${x.toFixed(2).padStart(7)} ms`;

async function time(label: string, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn(); // warm: keys fetched, caches filled
  const xs: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  console.log(`${label.padEnd(44)} p50 ${fmt(pct(xs, 0.5))}   p95 ${fmt(pct(xs, 0.95))}`);
  return pct(xs, 0.5);
}

const user = await createUser();
const plugin = await pairDevice(user, "figma-plugin", "bench");


console.log(`token verification, warm, ${N} iterations each`);
const idTokenVerifier = new CallerVerifier(SIGNED_IN, issuer, functionUrl("dermal"));
const accessVerifier = new CallerVerifier(device("figma-plugin"), issuer, functionUrl("figma"));
const base = await time("Firebase ID token (today's path)", () => idTokenVerifier.verifyAccessToken(user.token));
const ours = await time("our access token (JWT + grant + account)", () => accessVerifier.verifyAccessToken(plugin.accessToken));
console.log(`added by our tokens over the ID-token path: ${(ours - base).toFixed(2)} ms (target: verification < 5 ms warm → ${ours < 5 ? "met" : "NOT met"})`);

console.log(`\nMCP tools/list round trip through the Functions emulator, ${Math.min(N, 200)} calls each`);
const list = (domain: string, token: string) => async () => {
  const res = await fetch(functionUrl(domain), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  await res.text();
};
const rounds = Math.min(N, 200);
const save = N;
Object.assign(globalThis, { N: rounds });
await time("dermal with a Firebase ID token", list("dermal", user.token));
console.log(`(round trips include the emulator's proxy; ${save} verification iterations above)`);
process.exit(0);
