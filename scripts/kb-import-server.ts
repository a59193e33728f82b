// `npm run kb:import -- --server <knowledge URL> <files or folders…>`: the person's own import,
// without the project's credentials. The terminal pairs as a `kb-import` device (the code is
// confirmed in the browser, signed in as the person, like the desktop agent), then sends the files
// a few at a time to the knowledge function, which imports them with the deployment's embedder.
// Idempotent like the operator's form: unchanged documents are reported unchanged.
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { awaitConfirmation, discoverEndpoints, requestDeviceCode, type DeviceClient } from "../functions/src/contracts/device-flow.js";
import { OAUTH_PATHS } from "../functions/src/contracts/oauth.js";
import { KNOWLEDGE_IMPORT_PATH, MAX_IMPORT_REQUEST_BYTES, type ImportAnswer } from "../functions/src/contracts/knowledge-import.js";
import { expandPaths } from "../functions/src/domains/knowledge/ingest/import.js";

export async function importToServer(server: string, paths: string[]): Promise<number> {
  const base = server.replace(/\/+$/, "");
  const client: DeviceClient = { clientId: "kb-import", thisDevice: "This import", pairAgain: "run the import again" };
  const endpoints = await discoverEndpoints(base, { expected: "knowledge" });
  const code = await requestDeviceCode(endpoints, client, `kb:import on ${hostname()}`.slice(0, 60));
  console.log(`\nTo import into your knowledge base, open\n\n    ${code.verificationUriComplete}\n\nand confirm the code\n\n    ${code.userCode}\n\nWaiting… (Ctrl-C cancels)`);
  const paired = await awaitConfirmation(endpoints, client, code);
  console.log("Signed in. Importing…");
  try {
    return await sendFiles(base, paired.accessToken, paths);
  } finally {
    // One sign-in per run: the pairing is revoked when the run ends, so /apps does not collect them.
    const revoke = endpoints.token.slice(0, -OAUTH_PATHS.token.length) + OAUTH_PATHS.revoke;
    await fetch(revoke, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: paired.refreshToken, client_id: client.clientId }) }).catch(() => undefined);
  }
}

async function sendFiles(base: string, accessToken: string, paths: string[]): Promise<number> {
  const files = await expandPaths(paths);
  let failed = 0;
  const counts = { imported: 0, updated: 0, unchanged: 0 };
  let batch: { path: string; content: string }[] = [];
  let size = 0;
  const send = async () => {
    if (!batch.length) return;
    const res = await fetch(base + KNOWLEDGE_IMPORT_PATH, {
      method: "POST",
      headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ files: batch }),
    });
    const body = (await res.json().catch(() => ({}))) as Partial<ImportAnswer> & { error?: string; error_description?: string };
    if (!res.ok || !body.files) throw new Error(`the server refused the import (HTTP ${res.status}): ${body.error_description ?? body.error ?? "no answer"}`);
    for (const f of body.files) {
      if (f.status === "failed") {
        failed++;
        console.error(`  SKIPPED ${f.path}: ${f.error}`);
      }
      for (const d of f.documents) {
        counts[d.status]++;
        console.log(`  ${d.status.padEnd(9)} ${d.title} (${d.chunks} chunk${d.chunks === 1 ? "" : "s"}) — ${f.path}`);
      }
    }
    batch = [];
    size = 0;
  };
  for (const f of files) {
    const content = await readFile(f.path, "utf8").catch(() => undefined);
    if (content === undefined) {
      failed++;
      console.error(`  SKIPPED ${f.relativePath}: no such file or folder`);
      continue;
    }
    if (content.length > MAX_IMPORT_REQUEST_BYTES) {
      failed++;
      console.error(`  SKIPPED ${f.relativePath}: larger than ${MAX_IMPORT_REQUEST_BYTES / 1024 / 1024} MiB; split it`);
      continue;
    }
    if (size + content.length > MAX_IMPORT_REQUEST_BYTES || batch.length >= 20) await send();
    batch.push({ path: f.relativePath, content });
    size += content.length;
  }
  await send();
  console.log(`Done: ${counts.imported} new, ${counts.updated} updated, ${counts.unchanged} unchanged document(s); ${failed} file(s) skipped.`);
  return failed ? 1 : 0;
}
