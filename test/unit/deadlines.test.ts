// The deadline every dependency call gets (platform/deadline.ts), in-process against servers that
// accept a connection and never answer: Vertex AI embeddings through the real @google/genai
// client end with the sentence naming the embedding model; while a dependency is timing out, a
// second call is answered at once instead of waiting too (one call probes); the request's cancel
// ends the call and closes its connection; outside a request nothing is bounded here. Firestore's
// calls: deadlines-firestore.test.ts; the vision models': deadlines-vision.test.ts.
import { OAuth2Client } from "google-auth-library";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLogger } from "../../functions/src/core/log.js";
import { BUDGETS, callDependency, dependencyTrouble, DependencyUnavailable, recovered, RequestCancelled, withRequestDeadline, writesSafeToRepeat, type Budget } from "../../functions/src/platform/deadline.js";
import { VertexEmbedder } from "../../functions/src/platform/embeddings-vertex.js";
import { ToolError } from "../../functions/src/core/errors.js";
import { silentServer } from "../support/stall.js";

let silent: Awaited<ReturnType<typeof silentServer>>;
beforeAll(async () => (silent = await silentServer()));
afterAll(() => silent?.close());

const log = createLogger({ test: "deadlines" });
const inRequest = <T>(run: () => Promise<T>, signal?: AbortSignal) => withRequestDeadline({ timeoutSeconds: 60, signal, log }, run);
const errorOf = (p: Promise<unknown>) => p.then(() => undefined, (err: unknown) => err);
/** A dependency of the test's own with a short budget (the shipped budgets are seconds long). */
const hung = (ms: number): Budget => ({ dependency: "vision", label: "the test dependency", ms, marksTrouble: true });
const hang = (signal: AbortSignal) => fetch(silent.url, { signal });

describe("a dependency that never answers", () => {
  test("Vertex AI embeddings: the sentence naming the embedding model, 503 with Retry-After", async () => {
    const authClient = new OAuth2Client();
    authClient.setCredentials({ access_token: "test", expiry_date: Date.now() + 3_600_000 });
    const embedder = new VertexEmbedder({ project: "demo-project", location: "us-central1", baseUrl: silent.url, googleAuthOptions: { authClient } });
    const err = await errorOf(inRequest(() => embedder.embed(["sunscreen"], "query")));
    expect(err).toBeInstanceOf(DependencyUnavailable);
    const e = err as ToolError;
    expect(e.status).toBe(503);
    expect(e.extra.retryAfterSeconds).toBeGreaterThan(0);
    expect(e.toText()).toBe(
      `Error: Service temporarily unavailable: the embedding model (Vertex AI) did not answer within ${BUDGETS.vertex.ms / 1000} s. Try again in ${e.extra.retryAfterSeconds} s (503)`,
    );
  }, 120_000);

  test("while it is timing out one call probes it; the others are answered at once; an answer closes it again", async () => {
    const b = hung(300);
    expect(await errorOf(inRequest(() => callDependency(b, hang)))).toBeInstanceOf(DependencyUnavailable);
    expect(dependencyTrouble().map((t) => t.dependency)).toContain("vision");
    // A probe is in flight (it will wait its whole budget); the next call does not wait for it.
    let probeDone = false;
    const probe = errorOf(inRequest(() => callDependency({ ...b, ms: 60_000 }, hang))).finally(() => (probeDone = true));
    const refused = await errorOf(inRequest(() => callDependency(b, hang, { write: "unknown" })));
    expect(probeDone).toBe(false);
    expect((refused as ToolError).toText()).toBe("Error: Service temporarily unavailable: the test dependency is not answering right now. Try again in 10 s. Nothing was changed (503)");
    await silent.close(); // the probe's connection ends: an answer of sorts (the dependency is reachable again)
    silent = await silentServer();
    await probe;
    expect(await inRequest(() => callDependency(b, async () => "answered"))).toBe("answered");
    expect(dependencyTrouble().map((t) => t.dependency)).not.toContain("vision");
  }, 120_000);

  test("the request's cancel ends the call at once and aborts its connection", async () => {
    const cancel = new AbortController();
    let seen: AbortSignal | undefined;
    const call = errorOf(inRequest(() => callDependency(hung(60_000), (signal) => ((seen = signal), hang(signal))), cancel.signal));
    await new Promise((r) => setTimeout(r, 100));
    cancel.abort();
    expect(await call).toBeInstanceOf(RequestCancelled);
    expect(seen?.aborted).toBe(true);
  });

  test("a timed-out write says whether sending it again is safe: as the call says, or as its caller decided", async () => {
    // Another dependency each time, so no call is refused at once as "not answering right now".
    const text = async (dependency: Budget["dependency"], run: () => Promise<unknown>) => ((await errorOf(inRequest(run))) as ToolError).toText();
    const b = (dependency: Budget["dependency"]): Budget => ({ ...hung(200), dependency });
    const safe = /The change may or may not have been saved; sending the same call again is safe \(503\)$/;
    const check = /The change may or may not have been saved: check before sending it again \(503\)$/;
    expect(await text("vision", () => callDependency(b("vision"), hang, { write: "unknown" }))).toMatch(check);
    // A transaction whose repeat gets the first answer back (the token endpoint's exchanges, a keyed upload).
    expect(await text("vertex", () => writesSafeToRepeat(() => callDependency(b("vertex"), hang, { write: "unknown" })))).toMatch(safe);
    // A document set at a new random id on each attempt: a repeat makes a second one.
    expect(await text("vision-llm", () => writesSafeToRepeat(() => callDependency(b("vision-llm"), hang, { write: "idempotent" }), false))).toMatch(check);
    for (const d of ["vision", "vertex", "vision-llm"] as const) recovered(d, log);
  });

  test("outside a request (seeders, command-line imports) nothing is bounded here", async () => {
    const slow = new Promise<string>((resolve) => setTimeout(() => resolve("done"), 500));
    expect(await callDependency(hung(1), () => slow)).toBe("done");
  });
});
