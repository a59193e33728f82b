// What OAuth costs per MCP request: token verification warm (our access tokens: signature + grant
// still active + account state; Firebase ID tokens: the path programmatic clients use), measured
// in-process in the same run, then a tools/list round trip through the Functions emulator with
// each kind of token. Target (issue 8): < 5 ms warm for our tokens.
//   npm run bench -- oauth
process.env.FUNCTIONS_EMULATOR = "true"; // the verifier derives URLs the way the emulator serves them
import { createHash, randomBytes } from "node:crypto";
import { createUser, functionUrl } from "../test/support/emulators.js";
import { oauthUrl } from "../test/support/devices.js";
import { authorizeInBrowser, REDIRECT_URI } from "../test/support/oauth.js";

const { CallerVerifier } = await import("../functions/src/auth/verify.js");
const { SIGNED_IN } = await import("../functions/src/auth/policy.js");

const N = Number(process.env.BENCH_ITERATIONS ?? 500);
const ROUNDS = Math.min(N, 200);
const issuer = functionUrl("oauth");
const dermal = { ...SIGNED_IN, scopes: ["dermal"] };

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const fmt = (x: number) => `${x.toFixed(2).padStart(7)} ms`;

async function time(label: string, fn: () => Promise<unknown>, n: number): Promise<number> {
  for (let i = 0; i < 20; i++) await fn(); // warm: keys fetched, caches filled
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  console.log(`${label.padEnd(46)} p50 ${fmt(pct(xs, 0.5))}   p95 ${fmt(pct(xs, 0.95))}   (${n} runs)`);
  return pct(xs, 0.5);
}

/** An OAuth access token for dermal, through the real register → authorize → consent → token flow. */
async function oauthToken(user: Awaited<ReturnType<typeof createUser>>): Promise<string> {
  const reg = await fetch(oauthUrl("/register"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "bench", redirect_uris: [REDIRECT_URI] }) });
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(oauthUrl("/authorize"));
  const params = { response_type: "code", client_id, redirect_uri: REDIRECT_URI, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256", resource: functionUrl("dermal") };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const back = await authorizeInBrowser(url, user);
  const res = await fetch(oauthUrl("/token"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code: back.searchParams.get("code")!, code_verifier: verifier, client_id, redirect_uri: REDIRECT_URI }).toString(),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

const user = await createUser();
const accessToken = await oauthToken(user);
const verifier = new CallerVerifier(dermal, issuer, functionUrl("dermal"));

console.log("token verification, warm (in-process, against the emulators)");
const base = await time("Firebase ID token (today's path)", () => verifier.verifyAccessToken(user.token), N);
const ours = await time("our access token (JWT + grant + account)", () => verifier.verifyAccessToken(accessToken), N);
console.log(`our tokens: ${ours.toFixed(2)} ms p50, ${(ours - base).toFixed(2)} ms more than the ID-token path (target < 5 ms → ${ours < 5 ? "met" : "NOT met"})`);

const list = (token: string) => async () => {
  const res = await fetch(functionUrl("dermal"), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  await res.text();
};
console.log("\ndermal tools/list round trip through the Functions emulator");
const idRound = await time("with a Firebase ID token", list(user.token), ROUNDS);
const oauthRound = await time("with an OAuth access token", list(accessToken), ROUNDS);
console.log(`ratio OAuth / ID token: ${(oauthRound / idRound).toFixed(2)}×`);
console.log("(the grant read hits the local emulator here; a same-region Firestore read in production adds a few ms)");
process.exit(0);
