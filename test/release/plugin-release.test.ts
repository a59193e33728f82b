// The Figma plugin as a release asset: built for the production project's URLs, zipped as one
// folder Figma imports from its manifest, network access limited to that host (and Firestore's and
// Firebase Auth's, where the window listens for commands).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";

const REPO = join(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "plugin-release-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const run = (cmd: string, args: string[], cwd = REPO) => {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, out: `${r.stdout}${r.stderr}` };
};
const production = JSON.parse(readFileSync(join(REPO, ".firebaserc"), "utf8")).projects.production as string;
const base = `https://us-central1-${production}.cloudfunctions.net`;

test("plugin.sh production: one folder with manifest.json and dist/, talking only to the production host", () => {
  const manifestBefore = readFileSync(join(REPO, "figma-plugin/manifest.json"), "utf8");
  const built = run("bash", ["scripts/release/plugin.sh", "production", work]);
  expect(built.status, built.out).toBe(0);
  const zip = built.stdout.trim().split("\n").pop()!;
  expect(zip).toBe(join(work, "figma-plugin-0.1.0-production.zip".replace("0.1.0", JSON.parse(readFileSync(join(REPO, "figma-plugin/package.json"), "utf8")).version)));
  const listed = run("unzip", ["-Z1", zip]);
  expect(listed.stdout.trim().split("\n").filter((f) => !f.endsWith("/")).sort()).toEqual(["mcp-bridge/dist/code.js", "mcp-bridge/dist/ui.html", "mcp-bridge/manifest.json"]);
  expect(run("unzip", ["-q", zip, "-d", join(work, "x")]).status).toBe(0);
  const manifest = JSON.parse(readFileSync(join(work, "x/mcp-bridge/manifest.json"), "utf8"));
  expect(manifest.main).toBe("dist/code.js");
  expect(manifest.ui).toBe("dist/ui.html");
  // The function's host, and Firestore's and Firebase Auth's (the window listens for commands there).
  expect(manifest.networkAccess.allowedDomains).toEqual([base, "https://firestore.googleapis.com", "https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"]);
  expect(manifest.networkAccess.devAllowedDomains).toBeUndefined();
  const ui = readFileSync(join(work, "x/mcp-bridge/dist/ui.html"), "utf8");
  expect(ui).toContain(`${base}/figma`);
  expect(ui).toContain(`${base}/oauth`);
  expect(ui).not.toContain("127.0.0.1");
  // The checkout's own (development) manifest is left as it was.
  expect(readFileSync(join(REPO, "figma-plugin/manifest.json"), "utf8")).toBe(manifestBefore);
}, 300_000);

test("release notes name the version's install commands and the production URLs; a demo project is refused", () => {
  const notes = run("bash", ["scripts/release/notes.sh", "v9.8.7", "production"]);
  expect(notes.status, notes.out).toBe(0);
  expect(notes.stdout).toContain(`npx -y fotos-agent@9.8.7 pair --server ${base}/fotos`);
  expect(notes.stdout).toContain("Import plugin from manifest…");
  const demo = run("bash", ["scripts/release/notes.sh", "v1.0.0", "default"]);
  expect(demo.status).toBe(2);
  expect(demo.out).toContain("default is demo-mcp-suite, an emulator-only demo project");
});

test("pack-agent.sh refuses a tag that is not the package's version", () => {
  const r = spawnSync("bash", ["scripts/release/pack-agent.sh", work], { cwd: REPO, encoding: "utf8", env: { ...process.env, RELEASE_TAG: "v0.0.0-nope" } });
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/pack-agent: tag v0\.0\.0-nope does not match desktop-agent\/package\.json version \S+ \(set "version": "0\.0\.0-nope" and tag again\)/);
});
