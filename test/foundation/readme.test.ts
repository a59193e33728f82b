// The README's tool tables are generated from the definitions (`npm run docs:tools`); this fails
// when a tool, argument, default, description, resource or prompt changed without regenerating.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { currentBlock, toolDocs } from "../../scripts/tool-docs.js";

test("README's tool tables match the definitions (run `npm run docs:tools` after changing a tool)", async () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  expect(currentBlock(readme)).toBe((await toolDocs()).trim());
});
