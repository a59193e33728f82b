// Firestore's calls end on the wire at their deadline (platform/firestore-deadlines.ts): the
// Admin SDK against a gRPC server that never answers, or answers every call with UNAVAILABLE,
// which notes how each call's stream ended. A read, a query, a write, a transaction and a
// listener's first snapshot each end with the sentence naming the database, and the server sees
// each call reset by its deadline (or at once by the request's cancel), none sent again after it.
// The three run at once (each against its own server; their calls all start before any deadline).
import { describe, expect, test } from "vitest";
import { initializeApp } from "firebase-admin/app";
import { getFirestore, type Firestore } from "firebase-admin/firestore";
import { createLogger } from "../../functions/src/core/log.js";
import { ToolError } from "../../functions/src/core/errors.js";
import { BUDGETS, DependencyUnavailable, recovered, RequestCancelled, withRequestDeadline } from "../../functions/src/platform/deadline.js";
import { instrumentFirestore } from "../../functions/src/platform/firestore-deadlines.js";
import { waitFor } from "../../functions/src/platform/wait.js";
import { silentGrpcServer } from "../support/stall.js";

const log = createLogger({ test: "firestore-deadlines" });
const inRequest = <T>(run: () => Promise<T>, signal?: AbortSignal) => withRequestDeadline({ timeoutSeconds: 60, signal, log }, run);
const errorOf = (p: Promise<unknown>) => p.then(() => undefined, (err: unknown) => err);

/**
 * Runs `test` with an Admin SDK Firestore (instrumented as the functions' is) talking to `grpc`
 * only: the emulator's host in the environment would win over the host set here.
 */
async function againstGrpc(grpc: Awaited<ReturnType<typeof silentGrpcServer>>, name: string, test: (db: Firestore) => Promise<void>): Promise<void> {
  const emulatorHost = process.env.FIRESTORE_EMULATOR_HOST;
  delete process.env.FIRESTORE_EMULATOR_HOST;
  try {
    const db = getFirestore(initializeApp({ projectId: `demo-${name}` }, name));
    db.settings({ host: grpc.host, ssl: false, preferRest: false });
    instrumentFirestore(db);
    recovered("firestore", log); // a file's test before may have left it timing out: calls would be answered at once, not sent
    await test(db);
  } finally {
    if (emulatorHost !== undefined) process.env.FIRESTORE_EMULATOR_HOST = emulatorHost;
    await grpc.close();
  }
}

describe.concurrent("Firestore (the Admin SDK)", () => {
  test("a read, a query, a write, a transaction and a listener's first snapshot end with the sentence; each gRPC call is reset on the wire by its deadline, none retried after it", async () => {
    const grpc = await silentGrpcServer();
    await againstGrpc(grpc, "stalled", async (db) => {
      const doc = db.collection("stalled").doc("one");
      const budgetMs = BUDGETS.firestore.ms;
      const started = Date.now();
      const [read, query, write, transaction, listener] = await Promise.all([
        errorOf(inRequest(() => doc.get())),
        errorOf(inRequest(() => db.collection("stalled").where("n", ">", 1).get())),
        errorOf(inRequest(() => doc.set({ n: 1 }))),
        errorOf(inRequest(() => db.runTransaction(async (tx) => (await tx.get(doc)).exists))),
        errorOf(inRequest(() => waitFor(doc, () => true, { timeoutMs: 120_000 }))),
      ]);
      const answeredMs = Date.now() - started;
      const database = /^Error: Service temporarily unavailable: the database \(Firestore\) (did not answer within 8 s|is not answering right now)\. Try again in 10 s/;
      for (const err of [read, query, write, transaction, listener]) {
        expect(err).toBeInstanceOf(DependencyUnavailable);
        expect((err as ToolError).toText()).toMatch(database);
      }
      expect((write as ToolError).toText()).toMatch(/(sending the same call again is safe|Nothing was changed) \(503\)$/);
      expect((transaction as ToolError).toText()).toMatch(/(may or may not have been saved: check before sending it again|Nothing was changed) \(503\)$/);
      // On the wire: every call the server saw is reset by the client (RST_STREAM CANCEL), the
      // bounded ones by their deadline and the listener's when it is detached; nothing opens after.
      const slackMs = 10_000;
      const allEnded = async () => {
        const until = Date.now() + budgetMs + slackMs;
        while (Date.now() < until && grpc.calls.some((c) => c.closedAt === undefined)) await new Promise((r) => setTimeout(r, 200));
      };
      await allEnded();
      const lateCheck = grpc.calls.length;
      await new Promise((r) => setTimeout(r, 3_000)); // no retry starts after the deadline
      console.info(`answered after ${answeredMs} ms; calls on the wire: ${grpc.calls.map((c) => `${c.method} +${c.openedAt - started}..+${c.closedAt! - started} ms rst ${c.rstCode}`).join(", ")}`);
      expect(grpc.calls.length).toBe(lateCheck);
      expect(grpc.calls.map((c) => c.method)).toEqual(expect.arrayContaining(["BatchGetDocuments", "RunQuery", "Commit", "Listen"]));
      for (const c of grpc.calls) {
        expect(c.closedAt, c.method).toBeDefined();
        expect(c.rstCode, c.method).toBe(8);
        expect(c.closedAt! - started, c.method).toBeLessThan(budgetMs + slackMs);
        expect(c.openedAt - started, `${c.method} opened after the deadline`).toBeLessThan(budgetMs);
      }
    });
  }, 120_000);
  test("the SDK's retries stay within the budget: each call ends with the sentence, and none is sent after its deadline", async () => {
    const grpc = await silentGrpcServer({ unavailable: true });
    await againstGrpc(grpc, "unavailable", async (db) => {
      const budgetMs = BUDGETS.firestore.ms;
      const started = Date.now();
      const [read, query, write] = await Promise.all([
        errorOf(inRequest(() => db.doc("unavailable/one").get())),
        errorOf(inRequest(() => db.collection("unavailable").where("n", ">", 1).get())),
        errorOf(inRequest(() => db.doc("unavailable/two").update({ n: 2 }))),
      ]);
      for (const err of [read, query, write]) {
        expect(err).toBeInstanceOf(DependencyUnavailable);
        expect((err as ToolError).toText()).toMatch(/^Error: Service temporarily unavailable: the database \(Firestore\) (did not answer within 8 s|is not answering right now)\. Try again in 10 s/);
      }
      await new Promise((r) => setTimeout(r, 2_000)); // an attempt sent just before the deadline has arrived by now
      const sent = grpc.calls.length;
      await new Promise((r) => setTimeout(r, 5_000)); // backoffs would have run by now
      const byMethod = (m: string) => grpc.calls.filter((c) => c.method === m).length;
      console.info(`UNAVAILABLE: attempts BatchGetDocuments ${byMethod("BatchGetDocuments")}, RunQuery ${byMethod("RunQuery")}, Commit ${byMethod("Commit")}; the last sent ${Math.max(...grpc.calls.map((c) => c.openedAt)) - started} ms in`);
      expect(grpc.calls.length).toBe(sent);
      expect(byMethod("Commit")).toBeGreaterThan(1); // retried, within the budget
      for (const c of grpc.calls) expect(c.openedAt - started, c.method).toBeLessThan(budgetMs + 5_000);
    });
  }, 120_000);
  test("resets the write's and the read's gRPC calls at once; a read nobody cancelled ends at its deadline", async () => {
    const grpc = await silentGrpcServer();
    await againstGrpc(grpc, "cancelled", async (db) => {
      const cancel = new AbortController();
      const started = Date.now();
      const write = errorOf(inRequest(() => db.doc("cancelled/one").set({ n: 1 }), cancel.signal));
      const read = errorOf(inRequest(() => db.collection("cancelled").where("n", ">", 1).get(), cancel.signal));
      const kept = errorOf(inRequest(() => db.doc("cancelled/kept").get()));
      const until = Date.now() + 30_000;
      while (grpc.calls.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      cancel.abort();
      const cancelledAt = Date.now();
      expect(await write).toBeInstanceOf(RequestCancelled);
      expect(await read).toBeInstanceOf(RequestCancelled);
      expect(await kept).toBeInstanceOf(DependencyUnavailable);
      while (grpc.calls.some((c) => c.closedAt === undefined) && Date.now() < until + BUDGETS.firestore.ms) await new Promise((r) => setTimeout(r, 50));
      const call = (method: string) => grpc.calls.find((c) => c.method === method)!;
      const [commit, query, batchGet] = [call("Commit"), call("RunQuery"), call("BatchGetDocuments")];
      console.info(`cancelled ${cancelledAt - started} ms in: Commit reset ${commit.closedAt! - cancelledAt} ms after, RunQuery ${query.closedAt! - cancelledAt} ms after; the read not cancelled ${batchGet.closedAt! - cancelledAt} ms after`);
      for (const c of [commit, query, batchGet]) expect(c.rstCode, c.method).toBe(8);
      // The cancelled calls' resets follow the cancel, not their deadline: before the one that waits for its deadline.
      expect(commit.closedAt!).toBeLessThan(batchGet.closedAt!);
      expect(query.closedAt!).toBeLessThan(batchGet.closedAt!);
      expect(batchGet.closedAt! - started).toBeLessThan(BUDGETS.firestore.ms + 10_000);
    });
  }, 120_000);
});
