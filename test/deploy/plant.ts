// Temporary copies of the repository for planting problems: never the real tree. A copy holds
// what deploy:check reads (firebase.json, .firebaserc, rules, indexes, docs, functions/ without
// node_modules and lib); the check runs from the real repository's scripts with --root <copy>.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";

export const REPO = join(import.meta.dirname, "../..");
const copies: string[] = [];

export function plantedCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "deploy-plant-"));
  copies.push(dir);
  for (const f of ["firebase.json", ".firebaserc", "firestore.rules", "storage.rules", "firestore.indexes.json", "tsconfig.json", "README.md", "docs/deploy.md"]) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(REPO, f), join(dir, f));
  }
  cpSync(join(REPO, "functions"), join(dir, "functions"), {
    recursive: true,
    filter: (src) => !/^(node_modules|lib)(\/|$)/.test(relative(join(REPO, "functions"), src)),
  });
  return dir;
}

export function removeCopies(): void {
  for (const d of copies.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

export function edit(root: string, path: string, change: (text: string) => string): void {
  writeFileSync(join(root, path), change(readFileSync(join(root, path), "utf8")));
}

export interface Run {
  status: number | null;
  out: string;
  problems: string[]; // the ✗ lines
}

/** Runs deploy:check (scripts/deploy/check.ts of this repository) on `root`. */
export function deployCheck(root: string, ...args: string[]): Run {
  const run = spawnSync("tsx", [join(REPO, "scripts/deploy/check.ts"), "--root", root, ...args], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 400_000,
  });
  const out = `${run.stdout}${run.stderr}`;
  return { status: run.status, out, problems: out.split("\n").filter((l) => l.startsWith("✗ ")) };
}
