// `npm run docs:tools`: rewrites the generated tables of docs/tools.md from the definitions.
import { readFileSync, writeFileSync } from "node:fs";
import { END, START, TOOLS_DOC, toolDocs } from "./tool-docs.js";

const doc = readFileSync(TOOLS_DOC, "utf8");
const block = await toolDocs();
const i = doc.indexOf(START);
const j = doc.indexOf(END);
if (i < 0 || j < 0) throw new Error("docs/tools.md has no tools markers");
writeFileSync(TOOLS_DOC, `${doc.slice(0, i + START.length)}\n${block}\n${doc.slice(j)}`);
console.log("docs/tools.md: tool tables rewritten");
