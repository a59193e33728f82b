// After a deploy: does every function answer as a client will see it? Run by
// `scripts/deploy/deploy.sh <alias> --smoke-only` and after each deploy; the tests run it against
// the emulator's URLs.
//   tsx scripts/deploy/smoke.ts --base-url <https://region-project.cloudfunctions.net> [--functions a,b]
// Per HTTPS function: /healthz answers 200 "ok"; a signed-in function serves its protected-resource
// metadata (resource = its URL, authorization server = the oauth function) and answers an
// unauthenticated MCP call 401 with that document in `resource_metadata`; the oauth function serves
// its authorization-server metadata; an open MCP function lists its tools to a real MCP client.
// A new revision may still be starting: network errors and 5xx are retried for SMOKE_WAIT_SECONDS
// (default 120), anything else fails at once. Exit 1 names each function that failed and what it answered.
import { readFileSync } from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { WELL_KNOWN } from "../../functions/src/contracts/oauth.js";
import { FUNCTION_NAMES } from "../../functions/src/core/manifest.js";

const PRM_PATH = WELL_KNOWN.protectedResource;
const AS_PATH = WELL_KNOWN.authorizationServer;
const AUTHORIZATION_SERVER = "oauth";

/** The HTTPS functions functions/src/index.ts exports (scheduled functions have no URL). */
/** The HTTPS functions: one per manifest (deploy:check holds index.ts's exports to them). */
export const httpsFunctions = (): string[] => [...FUNCTION_NAMES];

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

class SmokeFailure extends Error {}

const waitSeconds = Number(process.env.SMOKE_WAIT_SECONDS ?? 120);

/** One request; network errors and 5xx are retried until the wait budget is spent. */
async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const deadline = Date.now() + waitSeconds * 1000;
  for (let delay = 1000; ; delay = Math.min(delay * 2, 10_000)) {
    let answer: Answer | undefined;
    let failure = "";
    try {
      const res = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(30_000) });
      answer = { status: res.status, headers: res.headers, text: await res.text() };
      if (res.status < 500) return answer;
      failure = `${res.status} ${excerpt(answer.text)}`;
    } catch (err) {
      failure = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
    }
    if (Date.now() + delay > deadline) {
      if (answer) return answer;
      throw new SmokeFailure(`${url} did not answer: ${failure}`);
    }
    await new Promise((r) => setTimeout(r, delay));
  }
}

const excerpt = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || "(empty body)";
};

function expectStatus(what: string, answer: Answer, status: number): void {
  if (answer.status !== status) throw new SmokeFailure(`${what} answered ${answer.status} (expected ${status}): ${excerpt(answer.text)}`);
}

function json(what: string, answer: Answer): Record<string, unknown> {
  try {
    return JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    throw new SmokeFailure(`${what} is not JSON: ${excerpt(answer.text)}`);
  }
}

/** Checks one function; returns what it found, throws SmokeFailure with what it answered. */
async function check(base: string, fn: string): Promise<string> {
  const url = `${base}/${fn}`;
  const healthAnswer = await request(`${url}/healthz`);
  expectStatus("GET /healthz", healthAnswer, 200);
  const health = json("/healthz", healthAnswer);
  if (health.status !== "ok") throw new SmokeFailure(`/healthz says ${JSON.stringify(health.status)}: ${excerpt(healthAnswer.text)}`);
  const found = [`healthz ok (version ${String(health.version ?? "?")})`];

  if (fn === AUTHORIZATION_SERVER) {
    const as = await request(`${url}${AS_PATH}`);
    expectStatus(`GET ${AS_PATH}`, as, 200);
    const doc = json(AS_PATH, as);
    if (doc.issuer !== url) throw new SmokeFailure(`${AS_PATH} names issuer ${JSON.stringify(doc.issuer)}, expected ${url}`);
    for (const key of ["authorization_endpoint", "token_endpoint", "jwks_uri"]) {
      if (typeof doc[key] !== "string") throw new SmokeFailure(`${AS_PATH} has no ${key}`);
    }
    found.push("authorization-server metadata ok");
  }
  if (health.mcp === false) return found.join(", ");

  if (health.access === "signed-in") {
    const prm = await request(`${url}${PRM_PATH}`);
    expectStatus(`GET ${PRM_PATH}`, prm, 200);
    const doc = json(PRM_PATH, prm);
    if (doc.resource !== url) throw new SmokeFailure(`${PRM_PATH} names resource ${JSON.stringify(doc.resource)}, expected ${url}`);
    const servers = doc.authorization_servers as unknown;
    if (!Array.isArray(servers) || !servers.includes(`${base}/${AUTHORIZATION_SERVER}`)) {
      throw new SmokeFailure(`${PRM_PATH} names authorization servers ${JSON.stringify(servers)}, expected ${base}/${AUTHORIZATION_SERVER}`);
    }
    found.push("protected-resource metadata ok");

    const unauthenticated = await request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expectStatus("an MCP call without a token", unauthenticated, 401);
    const challenge = unauthenticated.headers.get("www-authenticate") ?? "";
    const expected = `resource_metadata="${url}${PRM_PATH}"`;
    if (!challenge.includes(expected)) throw new SmokeFailure(`the 401's WWW-Authenticate is ${JSON.stringify(challenge)}, expected it to carry ${expected}`);
    found.push("unauthenticated MCP call 401 with resource_metadata");
  } else {
    const client = new Client({ name: "deploy-smoke", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { tools } = await client.listTools();
      if (tools.length === 0) throw new SmokeFailure("tools/list returned no tools");
      found.push(`tools/list: ${tools.length} tools`);
    } catch (err) {
      throw err instanceof SmokeFailure ? err : new SmokeFailure(`tools/list failed: ${(err as Error).message}`);
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  return found.join(", ");
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

async function main(args: string[]): Promise<number> {
  const base = option(args, "base-url")?.replace(/\/+$/, "");
  if (!base || !/^https?:\/\/[^/]+/.test(base)) {
    process.stderr.write("usage: smoke.ts --base-url <https://<region>-<project>.cloudfunctions.net> [--functions a,b]\n");
    return 2;
  }
  const index = readFileSync(new URL("../../functions/src/index.ts", import.meta.url), "utf8");
  const all = httpsFunctions();
  const exported = [...index.matchAll(/^export const ([A-Za-z][A-Za-z0-9_]*)/gm)].map((m) => m[1]!);
  // A scheduled function (e.g. fotosCleanup) has no URL to check.
  const wanted = (option(args, "functions")?.split(",").filter(Boolean) ?? all).filter((fn) => all.includes(fn) || !exported.includes(fn));
  const unknown = wanted.filter((fn) => !all.includes(fn));
  if (unknown.length) {
    process.stderr.write(`smoke: no HTTPS function ${unknown.join(", ")} in functions/src/index.ts (have: ${all.join(", ")})\n`);
    return 2;
  }
  process.stdout.write(`smoke check of ${wanted.length} functions at ${base}\n`);
  const results = await Promise.all(
    wanted.map(async (fn) => {
      try {
        return { fn, ok: true, text: await check(base, fn) };
      } catch (err) {
        return { fn, ok: false, text: err instanceof SmokeFailure ? err.message : `unexpected failure: ${(err as Error).message}` };
      }
    }),
  );
  for (const r of results) process.stdout.write(`  ${r.ok ? "ok  " : "FAIL"} ${r.fn}: ${r.text}\n`);
  const failed = results.filter((r) => !r.ok);
  if (failed.length) {
    process.stderr.write(`smoke: ${failed.length} of ${results.length} functions failed: ${failed.map((r) => r.fn).join(", ")}\n`);
    return 1;
  }
  process.stdout.write(`smoke: all ${results.length} functions answer as clients expect\n`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
