// The README's tool tables are generated from the definitions (`npm run docs:tools`); this fails
// when a tool, resource or prompt was added or renamed without regenerating them.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import type { DomainDefinition } from "../../functions/src/mcp/define.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

test.each(["dermal", "knowledge", "mermaid"])("README lists every tool, resource and prompt of %s", async (name) => {
  const domain = (await import(`../../functions/src/domains/${name}/index.ts`)).default as DomainDefinition;
  for (const t of domain.tools) expect(readme, `tool ${t.name}`).toContain(`| \`${t.name}\` |`);
  for (const r of domain.resources ?? []) expect(readme).toContain(r.kind === "static" ? r.uri : r.uriTemplate);
  for (const p of domain.prompts ?? []) expect(readme).toContain(`prompt \`${p.name}\``);
});
