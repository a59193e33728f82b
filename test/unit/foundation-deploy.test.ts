// What `firebase deploy` relies on, checked without deploying.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

const json = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), "utf8"));

test("functions/ installs on its own: its lockfile matches its package.json (run `npm run lock:functions`)", () => {
  const pkg = json("functions/package.json");
  const lock = json("functions/package-lock.json");
  const root = lock.packages[""];
  expect(root.dependencies).toEqual(pkg.dependencies);
  expect(root.devDependencies ?? {}).toEqual(pkg.devDependencies ?? {});
  for (const name of Object.keys(pkg.dependencies)) expect(lock.packages[`node_modules/${name}`], name).toBeDefined();
});

test("firebase.json deploys Node 22 functions with a predeploy build, rules and indexes", () => {
  const config = json("firebase.json");
  expect(config.functions[0]).toMatchObject({ source: "functions", runtime: "nodejs22" });
  expect(config.functions[0].predeploy.join(" ")).toContain("run build");
  expect(config.firestore).toEqual({ rules: "firestore.rules", indexes: "firestore.indexes.json" });
  expect(config.storage).toEqual({ rules: "storage.rules" });
  expect(config.emulators.ui.enabled).toBe(false);
});

test("the functions upload keeps what Cloud Build installs and runs: lib/, package.json, the lockfile (test/deploy runs the rest)", () => {
  const ignore: string[] = json("firebase.json").functions[0].ignore;
  for (const kept of ["lib", "package.json", "package-lock.json"]) expect(ignore, kept).not.toContain(kept);
  expect(ignore).toEqual(expect.arrayContaining(["node_modules", "src"]));
});

test(".firebaserc: the emulators' demo project by default; staging and production aliases for deploys", () => {
  const { projects } = json(".firebaserc");
  expect(projects.default).toMatch(/^demo-/);
  for (const alias of ["staging", "production"]) expect(projects[alias], alias).toMatch(/^(?!demo-)[a-z][a-z0-9-]{4,28}[a-z0-9]$/);
});
