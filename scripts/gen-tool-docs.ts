// `npm run docs:tools`: rewrites the README's "Tools per domain" section from the definitions.
import { readFileSync, writeFileSync } from "node:fs";
import { END, START, toolDocs } from "./tool-docs.js";

const README = new URL("../README.md", import.meta.url);
const readme = readFileSync(README, "utf8");
const block = await toolDocs();
const i = readme.indexOf(START);
const j = readme.indexOf(END);
if (i < 0 || j < 0) throw new Error("README.md has no tools markers");
writeFileSync(README, `${readme.slice(0, i + START.length)}\n${block}\n${readme.slice(j)}`);
console.log("README.md: tool tables rewritten");
