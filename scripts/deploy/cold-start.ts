// Each function's cold-start import cost, measured in a fresh Node process on the built code:
// time and module files to load lib/index.js (what every function pays) and then the function's
// own lazily imported domain, with the packages that make up the bulk. A function that loads
// another domain's compiled modules is reported: its cold start pays for a neighbour.
import { spawnSync } from "node:child_process";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export interface ColdStart {
  fn: string;
  entryMs: number;
  lazyMs: number;
  modules: number;
  entryModules: number;
  packages: [string, number][]; // package → module files, most first
  ownPackages: [string, number][]; // the same, for what the function's own lazy import adds
  foreignDomains: string[]; // compiled modules of other domains it loaded
  error?: string;
}

export function measureColdStart(functionsDir: string, fn: string, lazyLibFiles: string[], ownDomain: string | null, env: Record<string, string>): ColdStart {
  const runner = join(import.meta.dirname, "cold-start-runner.mjs");
  const run = spawnSync(process.execPath, [runner, join(functionsDir, "lib/index.js"), ...lazyLibFiles], {
    cwd: functionsDir,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...env, PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
  });
  const base: ColdStart = { fn, entryMs: 0, lazyMs: 0, modules: 0, entryModules: 0, packages: [], ownPackages: [], foreignDomains: [] };
  if (run.status !== 0) return { ...base, error: (run.stderr || String(run.error ?? `exit ${run.status}`)).trim().split("\n").slice(0, 8).join("\n") };
  const r = JSON.parse(run.stdout) as { entryMs: number; lazyMs: number; entryModules: number; modules: string[] };
  const counts = new Map<string, number>();
  const own = new Map<string, number>();
  const foreign = new Set<string>();
  for (const [i, url] of r.modules.entries()) {
    const path = fileURLToPath(url);
    const rel = relative(functionsDir, path).split(sep);
    const nm = rel.lastIndexOf("node_modules");
    if (nm >= 0) {
      const name = rel[nm + 1]!.startsWith("@") ? `${rel[nm + 1]}/${rel[nm + 2]}` : rel[nm + 1]!;
      counts.set(name, (counts.get(name) ?? 0) + 1);
      if (i >= r.entryModules) own.set(name, (own.get(name) ?? 0) + 1);
    } else if (rel[0] === "lib" && rel[1] === "domains" && rel[2] && rel[2] !== ownDomain) foreign.add(rel[2]);
  }
  return {
    fn,
    entryMs: r.entryMs,
    lazyMs: r.lazyMs,
    modules: r.modules.length,
    entryModules: r.entryModules,
    packages: [...counts].sort((a, b) => b[1] - a[1]),
    ownPackages: [...own].sort((a, b) => b[1] - a[1]),
    foreignDomains: [...foreign],
  };
}

export function formatColdStart(c: ColdStart): string {
  if (c.error) return `${c.fn}: failed to load\n${c.error}`;
  const list = (p: [string, number][]) => p.slice(0, 5).map(([name, n]) => `${name} ${n}`).join(", ") || "no packages";
  return [
    `${c.fn.padEnd(10)} ${Math.round(c.entryMs + c.lazyMs).toString().padStart(5)} ms  ${String(c.modules).padStart(5)} modules  (entry ${Math.round(c.entryMs)} ms / ${c.entryModules}; own domain ${Math.round(c.lazyMs)} ms / ${c.modules - c.entryModules})`,
    `${"".padEnd(10)} packages: ${list(c.packages)}; own domain adds: ${list(c.ownPackages)}`,
  ].join("\n");
}
