// `npm run kb:import -- --user <uid> <files or folders…>`: imports Markdown / plain-text files,
// Kindle `My Clippings.txt` and Readwise CSV exports into that user's knowledge base.
// Against the emulator when `npm start` is running (or FIRESTORE_EMULATOR_HOST is set);
// production only when asked for explicitly, with Application Default Credentials
// (`MCP_TARGET=production GCLOUD_PROJECT=<project> npm run kb:import -- …`), and never with the
// local model: the deployed function embeds queries with Vertex, so local vectors written there
// could never be searched.
// Idempotent: unchanged documents are skipped; edited notes replace their old chunks; highlights
// are added to what is there.
import { initializeApp } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
import { createEmbedder, configuredProvider } from "../functions/src/platform/embeddings.js";
import { importFiles, type ProgressEvent } from "../functions/src/domains/knowledge/ingest/import.js";

const USAGE = "Usage: npm run kb:import -- --user <uid> <files or folders…>   (operator: the project's credentials)\n       npm run kb:import -- --server <knowledge URL> <files or folders…>   (yourself: sign in in the browser)";

// The person's own form: no project credentials, signs in as them (scripts/kb-import-server.ts).
const serverAt = process.argv.findIndex((a) => a === "--server" || a.startsWith("--server="));
if (serverAt >= 0) {
  const arg = process.argv[serverAt]!;
  const server = arg.startsWith("--server=") ? arg.slice(9) : (process.argv[serverAt + 1] ?? "");
  const rest = process.argv.slice(2).filter((_, i) => i + 2 !== serverAt && (arg.startsWith("--server=") || i + 2 !== serverAt + 1));
  if (!server || !rest.length) {
    console.error(USAGE);
    process.exit(2);
  }
  const { importToServer } = await import("./kb-import-server.js");
  process.exit(await importToServer(server, rest).catch((err: Error) => (console.error(`Import failed: ${err.message}`), 1)));
}

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
const refuse = (message: string): never => {
  console.error(message);
  process.exit(2);
};
let provider: ReturnType<typeof configuredProvider>;
try {
  provider = configuredProvider();
} catch (err) {
  refuse((err as Error).message);
}
if (!process.env.FIRESTORE_EMULATOR_HOST) {
  if (process.env.MCP_TARGET !== "production" || !project || project.startsWith("demo-")) {
    refuse(
      "No emulator suite is running, and production was not asked for.\n" +
        "  Local:      start `npm start` in another terminal, then run this again.\n" +
        "  Production: MCP_TARGET=production GCLOUD_PROJECT=<project> npm run kb:import -- --user <uid> <files…>",
    );
  }
  if (provider! === "local") {
    refuse(
      "Refusing to import into production with the local embedding model (EMBEDDINGS_PROVIDER=local): the deployed " +
        "function embeds queries with gemini-embedding-001 on Vertex AI, so these vectors could never be searched.\n" +
        "  Unset EMBEDDINGS_PROVIDER (production scripts default to vertex) or set EMBEDDINGS_PROVIDER=vertex.",
    );
  }
}
process.on("unhandledRejection", (err) => {
  console.error(`Import failed: ${(err as Error)?.message ?? err}`);
  process.exit(1);
});
const db = getFirestore(initializeApp(project ? { projectId: project } : {}));
db.settings({ ignoreUndefinedProperties: true });

const target = process.env.FIRESTORE_EMULATOR_HOST ? `emulator ${process.env.FIRESTORE_EMULATOR_HOST}` : `project ${project ?? "(from credentials)"}`;
const started = Date.now();
const embedder = await createEmbedder(provider!, { bulk: true }); // every core embeds: an import is bulk work
console.log(`Importing for user ${uid} into ${target}, embeddings: ${embedder.model}`);

const progress = (e: ProgressEvent) => {
  if (quiet && e.type !== "file-failed") return;
  if (e.type === "file") console.log(`[${e.index}/${e.total}] ${e.path}`);
  else if (e.type === "document") console.log(`    ${e.status.padEnd(9)} ${e.title} (${e.chunks} chunk${e.chunks === 1 ? "" : "s"})`);
  else if (e.type === "embedding") console.log(`    embedding ${e.title}: ${e.done}/${e.total}`);
  else if (e.type === "writing") console.log(`    writing ${e.title} (${e.stage}): ${e.done}/${e.total}`);
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
