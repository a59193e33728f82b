// The tool tables of docs/tools.md are generated from the definitions (`npm run docs:tools`); this
// fails when a tool, argument, default, description, resource or prompt changed without
// regenerating. The README stays a short entry page whose links lead somewhere.
import { existsSync, readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { currentBlock, TOOLS_DOC, toolDocs } from "../../scripts/tool-docs.js";

const root = new URL("../../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");

test("docs/tools.md's tool tables match the definitions (run `npm run docs:tools` after changing a tool)", async () => {
  expect(currentBlock(readFileSync(TOOLS_DOC, "utf8"))).toBe((await toolDocs()).trim());
});

test("the README is an entry page: at most 150 lines, every docs page it names exists", () => {
  expect(readme.split("\n").length).toBeLessThanOrEqual(150);
  const named = [...readme.matchAll(/docs\/[\w.-]+\.md/g)].map((m) => m[0]);
  expect(named).toContain("docs/tools.md");
  expect(named.filter((p) => !existsSync(new URL(p, root)))).toEqual([]);
});
