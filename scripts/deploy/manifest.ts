// The functions' manifest, read the way `firebase deploy` reads it: the functions SDK's own
// discovery binary (`firebase-functions <dir>`, with FUNCTIONS_CONTROL_API=true and
// FUNCTIONS_MANIFEST_OUTPUT_PATH) loads lib/index.js and writes functions.yaml; the CLI's own
// code (firebase-tools' yamlToBuild, resolveBackend, endpointsAreValid) turns it into what it
// would deploy and validates it. Only the secret existence check (Secret Manager) is left to
// the real deploy: it needs Google credentials.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REGION } from "../../functions/src/core/where.js";

const require = createRequire(import.meta.url);

export interface Endpoint {
  id: string;
  region: string[];
  availableMemoryMb: number | null;
  cpu: number | string | null;
  timeoutSeconds: number | null;
  concurrency: number | null;
  minInstances: number | null;
  maxInstances: number | null;
  secrets: string[];
  invoker: string[];
}
export interface Param {
  name: string;
  type: string;
  default?: unknown;
}
export interface Manifest {
  endpoints: Endpoint[];
  params: Param[];
  requiredAPIs: string[];
  raw: any;
}

/** Runs the SDK's discovery on an installed + built functions directory. */
export function discover(functionsDir: string, projectId: string, env: Record<string, string> = {}): Manifest {
  const bin = join(functionsDir, "node_modules", ".bin", "firebase-functions");
  if (!existsSync(bin)) throw new Error(`${bin} is missing: functions/ has no firebase-functions installed`);
  const dir = mkdtempSync(join(tmpdir(), "deploy-discovery-"));
  const out = join(dir, "functions.yaml");
  try {
    const run = spawnSync(bin, [functionsDir], {
      cwd: functionsDir,
      encoding: "utf8",
      timeout: 60_000,
      env: {
        ...env,
        FUNCTIONS_CONTROL_API: "true",
        FUNCTIONS_MANIFEST_OUTPUT_PATH: out,
        GCLOUD_PROJECT: projectId,
        GOOGLE_CLOUD_QUOTA_PROJECT: projectId,
        FIREBASE_CONFIG: JSON.stringify({ projectId, storageBucket: `${projectId}.appspot.com` }),
        HOME: process.env.HOME ?? "/tmp",
        PATH: process.env.PATH ?? "",
      },
    });
    if (run.status !== 0 || !existsSync(out)) {
      throw new Error(`the functions SDK could not load lib/index.js (exit ${run.status}):\n${(run.stderr || run.stdout || String(run.error ?? "")).trim()}`);
    }
    const yaml = createRequire(join(toolsRoot(), "node_modules/firebase-tools/package.json"))("yaml");
    const raw = yaml.parse(readFileSync(out, "utf8"));
    const endpoints: Endpoint[] = Object.entries(raw.endpoints ?? {}).map(([id, e]: [string, any]) => ({
      id,
      region: e.region ?? [],
      availableMemoryMb: e.availableMemoryMb ?? null,
      cpu: e.cpu ?? null,
      timeoutSeconds: e.timeoutSeconds ?? null,
      concurrency: e.concurrency ?? null,
      minInstances: e.minInstances ?? null,
      maxInstances: e.maxInstances ?? null,
      secrets: (e.secretEnvironmentVariables ?? []).map((s: { key: string }) => s.key),
      invoker: e.httpsTrigger?.invoker ?? [],
    }));
    return { endpoints, params: raw.params ?? [], requiredAPIs: (raw.requiredAPIs ?? []).map((a: any) => a.api), raw };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The repository these scripts belong to (its firebase-tools is the CLI that deploys). */
const toolsRoot = () => join(import.meta.dirname, "../..");

/** What firebase-tools itself checks before deploying, run on the manifest (offline). */
export async function validateWithCli(manifest: Manifest, projectId: string, runtime: string, userEnvs: Record<string, string>): Promise<void> {
  const cli = (p: string) => require(join(toolsRoot(), "node_modules/firebase-tools/lib", p));
  const discovery = cli("deploy/functions/runtimes/discovery/index.js");
  const build = cli("deploy/functions/build.js");
  const validate = cli("deploy/functions/validate.js");
  const backend = cli("deploy/functions/backend.js");
  const wantBuild = discovery.yamlToBuild(manifest.raw, projectId, REGION, runtime);
  const { backend: want } = await build.resolveBackend({
    build: wantBuild,
    firebaseConfig: { projectId, storageBucket: `${projectId}.appspot.com`, locationId: REGION },
    userEnvs,
    nonInteractive: true,
    isEmulator: true, // skips only the Secret Manager look-up, which needs credentials
  });
  validate.endpointsAreValid(want, backend.empty());
}

/** KEY=value lines of functions/.env and functions/.env.<project> (what the CLI deploys). */
export function userEnvs(functionsDir: string, projectId: string, alias?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [".env", `.env.${projectId}`, ...(alias ? [`.env.${alias}`] : [])]) {
    const path = join(functionsDir, name);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, "utf8").split("\n")) {
      const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
      if (m && !line.trim().startsWith("#")) out[m[1]!] = m[2]!.replace(/^(['"])(.*)\1$/, "$2");
    }
  }
  return out;
}

const mem = (mb: number | null) => (mb === null ? "default" : mb >= 1024 ? `${mb / 1024} GiB` : `${mb} MiB`);
const orDefault = (v: unknown, unit = "") => (v === null || v === undefined ? "default" : `${v}${unit}`);

export function formatManifest(m: Manifest): string {
  const rows = [["function", "region", "memory", "cpu", "timeout", "concurrency", "min", "max", "secrets"]];
  for (const e of m.endpoints) {
    rows.push([
      e.id,
      e.region.join(","),
      mem(e.availableMemoryMb),
      orDefault(e.cpu),
      orDefault(e.timeoutSeconds, " s"),
      orDefault(e.concurrency),
      orDefault(e.minInstances),
      orDefault(e.maxInstances),
      e.secrets.join(", ") || "—",
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd());
  lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("  "));
  const params = m.params.map((p) => `  ${p.name} (${p.type}${p.default !== undefined ? `, default ${JSON.stringify(p.default)}` : ""})`);
  return [...lines, params.length ? `params:\n${params.join("\n")}` : "params: none", m.requiredAPIs.length ? `required APIs: ${m.requiredAPIs.join(", ")}` : ""]
    .filter(Boolean)
    .join("\n");
}

/** Cost and abuse limits every function must state itself. */
export function limitProblems(m: Manifest, manifestNames: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const e of m.endpoints) {
    const missing = [
      e.maxInstances === null && "maxInstances (without it an open function can scale without bound)",
      e.availableMemoryMb === null && "memory",
      e.timeoutSeconds === null && "timeoutSeconds",
      e.concurrency === null && "concurrency",
    ].filter(Boolean);
    if (missing.length) out.push(`function ${e.id} leaves ${missing.join(", ")} to the platform default: set it in ${manifestNames.includes(e.id) ? "its manifest's serving profile (functions/src/core/manifest.ts)" : "functions/src/index.ts"}`);
  }
  return out;
}
