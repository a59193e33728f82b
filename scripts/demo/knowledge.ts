// Knowledge demo data: Alice's knowledge base, imported through the same code as
// `npm run kb:import` from scripts/demo/data/knowledge/ (self-written text: a Kindle
// "My Clippings.txt", three Readwise CSV exports and Markdown notes; ~215 chunks on habits, sleep,
// investing, gardening, learning, code, leadership, cooking, physics, stoicism, history, …).
// Idempotent: a second run finds every document unchanged and writes nothing.
import { fileURLToPath } from "node:url";
import { createEmbedder, configuredProvider } from "../../functions/src/platform/embeddings.js";
import { importFiles } from "../../functions/src/domains/knowledge/ingest/import.js";
import type { DemoContext } from "./context.js";

export const KNOWLEDGE_DATA = fileURLToPath(new URL("./data/knowledge/", import.meta.url));

export async function seed(ctx: DemoContext): Promise<void> {
  const embedder = await createEmbedder(configuredProvider(), { bulk: true });
  const report = await importFiles([KNOWLEDGE_DATA], { db: ctx.db, uid: ctx.users.alice.uid, embedder });
  const d = report.documents;
  const chunks = report.files.reduce((n, f) => n + f.documents.reduce((m, doc) => m + doc.chunks, 0), 0);
  ctx.log(`knowledge: ${chunks} chunks in ${d.imported + d.updated + d.unchanged} documents for ${ctx.users.alice.email} (${d.imported} new, ${d.updated} updated, ${d.unchanged} unchanged)`);
  for (const f of report.files.filter((f) => f.status === "failed")) ctx.log(`knowledge: skipped ${f.path}: ${f.error}`);
}
