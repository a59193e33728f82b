// `npm run kb:import -- --user <uid> <files or folders…>`: imports Markdown / plain-text files,
// Kindle `My Clippings.txt` and Readwise CSV exports into that user's knowledge base.
// Against the emulator when `npm start` is running (or FIRESTORE_EMULATOR_HOST is set);
// otherwise against production with Application Default Credentials
// (`MCP_TARGET=production GCLOUD_PROJECT=<project> EMBEDDINGS_PROVIDER=vertex npm run kb:import -- …`).
// Idempotent: unchanged documents are skipped; edited ones replace their old chunks.
import { initializeApp } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
import { createEmbedder, configuredProvider } from "../functions/src/platform/embeddings.js";
import { importFiles, type ProgressEvent } from "../functions/src/domains/knowledge/ingest/import.js";

const USAGE = "Usage: npm run kb:import -- --user <uid> <files or folders…>";

function parseArgs(argv: string[]): { uid: string; paths: string[]; quiet: boolean } {
  let uid = "";
  let quiet = false;
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--user" || a === "-u") uid = argv[++i] ?? "";
    else if (a.startsWith("--user=")) uid = a.slice(7);
    else if (a === "--quiet" || a === "-q") quiet = true;
    else if (a === "--help" || a === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else paths.push(a);
  }
  if (!uid || !paths.length) {
    console.error(USAGE);
    process.exit(2);
  }
  return { uid, paths, quiet };
}

const { uid, paths, quiet } = parseArgs(process.argv.slice(2));
const project = process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT;
if (!process.env.FIRESTORE_EMULATOR_HOST && (!project || project.startsWith("demo-"))) {
  console.error(
    "No emulator suite is running and no production project is named.\n" +
      "  Local:      start `npm start` in another terminal, then run this again.\n" +
      "  Production: MCP_TARGET=production GCLOUD_PROJECT=<project> npm run kb:import -- --user <uid> <files…>",
  );
  process.exit(2);
}
process.on("unhandledRejection", (err) => {
  console.error(`Import failed: ${(err as Error)?.message ?? err}`);
  process.exit(1);
});
const db = getFirestore(initializeApp(project ? { projectId: project } : {}));
db.settings({ ignoreUndefinedProperties: true });

const target = process.env.FIRESTORE_EMULATOR_HOST ? `emulator ${process.env.FIRESTORE_EMULATOR_HOST}` : `project ${project ?? "(from credentials)"}`;
const started = Date.now();
const embedder = await createEmbedder(configuredProvider());
console.log(`Importing for user ${uid} into ${target}, embeddings: ${embedder.model}`);

const progress = (e: ProgressEvent) => {
  if (quiet && e.type !== "file-failed") return;
  if (e.type === "file") console.log(`[${e.index}/${e.total}] ${e.path}`);
  else if (e.type === "document") console.log(`    ${e.status.padEnd(9)} ${e.title} (${e.chunks} chunk${e.chunks === 1 ? "" : "s"})`);
  else if (e.type === "embedding") console.log(`    embedding ${e.title}: ${e.done}/${e.total}`);
  else console.error(`    SKIPPED ${e.path}: ${e.error}`);
};

const report = await importFiles(paths, { db, uid, embedder, onProgress: progress });
const secs = ((Date.now() - started) / 1000).toFixed(1);
const d = report.documents;
console.log(
  `Done in ${secs} s: ${d.imported} new, ${d.updated} updated, ${d.unchanged} unchanged document(s); ${report.chunksWritten} chunk(s) written; ${report.failed} file(s) skipped.`,
);
for (const f of report.files.filter((f) => f.status === "failed")) console.error(`  skipped ${f.path}: ${f.error}`);
process.exit(report.failed ? 1 : 0);
