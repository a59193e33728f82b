// Runs one benchmark (`bench/<name>.ts`), shows its output as it comes, and on success writes what
// it printed into docs/benchmarks.md between `<!-- bench:<name> -->` and `<!-- /bench:<name> -->`:
// the page always holds each benchmark's latest figures and nothing older.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const name = process.argv[2];
if (!name || !/^[\w-]+$/.test(name)) throw new Error("usage: bench-record.ts <bench name>");
const PAGE = new URL("../docs/benchmarks.md", import.meta.url);

const child = spawn("tsx", [`bench/${name}.ts`], { stdio: ["inherit", "pipe", "inherit"] });
let out = "";
child.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  out += chunk.toString("utf8");
});
const code: number = await new Promise((resolve) => child.on("close", (c) => resolve(c ?? 1)));
if (code !== 0) process.exit(code);

const start = `<!-- bench:${name} -->`;
const end = `<!-- /bench:${name} -->`;
const page = readFileSync(PAGE, "utf8");
const i = page.indexOf(start);
const j = page.indexOf(end);
// eslint-disable-next-line no-control-regex
const figures = out.replace(/\x1b\[[0-9;]*m/g, "").trim();
const block = `${start}\n\`\`\`\n${figures}\n\`\`\`\n${end}`;
writeFileSync(PAGE, i >= 0 && j > i ? page.slice(0, i) + block + page.slice(j + end.length) : `${page.trimEnd()}\n\n## bench/${name}.ts\n\n${block}\n`);
console.log(`docs/benchmarks.md: latest figures of bench/${name}.ts written`);
