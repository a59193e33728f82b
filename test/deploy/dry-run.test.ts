// The deploy job's own script, run as a dry run: everything up to the first step that needs
// Google credentials (alias → project, targets, the whole deploy:check, the exact firebase
// command), and its refusals.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "vitest";

const REPO = join(import.meta.dirname, "../..");

function deploy(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync("bash", ["scripts/deploy/deploy.sh", ...args], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 400_000,
    // The clean install of check.test.ts is reused (same lockfile): this test is about the script.
    env: { ...process.env, DEPLOY_CHECK_ARGS: "--no-install", ...env },
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

test("staging: runs deploy:check with the staging project, then stops before credentials with the exact command", () => {
  const run = deploy(["staging", "--dry-run"]);
  expect(run.out).toContain("deploying functions,firestore,storage to staging (mcp-suite-staging)");
  expect(run.out).toContain("functions manifest (firebase-functions discovery, project mcp-suite-staging)");
  expect(run.out).toContain("deploy:check: nothing firebase deploy would refuse.");
  expect(run.out).toMatch(/dry run: would run: firebase deploy --project staging --only functions,firestore,storage --non-interactive --message \S+\n/);
  expect(run.out).toContain("dry run: stopping before the first step that needs Google credentials");
  expect(run.status).toBe(0);
}, 400_000);

test("one function: --only functions:dermal passes through unchanged", () => {
  const run = deploy(["production", "--only", "functions:dermal", "--dry-run", "--skip-check"]);
  expect(run.out).toContain("dry run: would run: firebase deploy --project production --only functions:dermal --non-interactive");
  expect(run.status).toBe(0);
});

test("refuses an unknown function, an unknown alias and the emulator's demo project before doing anything", () => {
  let run = deploy(["staging", "--only", "functions:nope", "--dry-run"]);
  expect(run.status).toBe(2);
  expect(run.out).toContain('deploy: no function "nope" in functions/src/index.ts (targets: functions:nope)');
  run = deploy(["qa", "--dry-run"]);
  expect(run.status).toBe(2);
  expect(run.out).toContain('deploy: .firebaserc has no alias "qa" (add it: firebase use --add <project id> --alias qa)');
  run = deploy(["default", "--dry-run"]);
  expect(run.status).toBe(2);
  expect(run.out).toContain("deploy: default is demo-mcp-suite, an emulator-only demo project");
});

test("in CI without the Workload Identity credentials it stops instead of deploying", () => {
  const run = deploy(["staging", "--skip-check"], { CI: "true", GOOGLE_APPLICATION_CREDENTIALS: "" });
  expect(run.status).toBe(1);
  expect(run.out).toContain("deploy: no Google credentials (the workflow's google-github-actions/auth step sets GOOGLE_APPLICATION_CREDENTIALS)");
});
