// `npm run docs:tools`: rewrites the README's "Tools per domain" section from the definitions
// themselves (names, arguments, annotations, resources, prompts), so the README cannot drift.
import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import type { DomainDefinition } from "../functions/src/mcp/define.js";

const DOMAINS = ["dermal", "knowledge", "mermaid", "fotos", "figma"];
const README = new URL("../README.md", import.meta.url);

function args(schema: z.ZodObject): string {
  const json = z.toJSONSchema(schema, { io: "input" }) as { properties?: Record<string, { default?: unknown }>; required?: string[] };
  return Object.entries(json.properties ?? {})
    .map(([name, p]) => {
      const optional = !json.required?.includes(name);
      const def = p.default !== undefined ? ` = ${JSON.stringify(p.default)}` : "";
      return `\`${name}${optional ? "?" : ""}${def}\``;
    })
    .join(", ");
}

const out: string[] = [];
for (const name of DOMAINS) {
  let domain: DomainDefinition;
  try {
    domain = (await import(`../functions/src/domains/${name}/index.ts`)).default;
  } catch {
    continue;
  }
  if (!domain.tools.length) continue;
  out.push(`### \`${name}\` — ${domain.title}`, "", domain.description, "");
  out.push(`Access: ${domain.access === "public" ? "open (no sign-in)" : "signed-in users (Firebase ID token), each sees only their own data"}.`, "");
  out.push("| tool | arguments | what it does |", "|---|---|---|");
  for (const t of domain.tools) {
    const flags = [t.annotations.readOnlyHint ? "read-only" : "writes", t.annotations.openWorldHint ? "open-world" : null].filter(Boolean).join(", ");
    out.push(`| \`${t.name}\` | ${args(t.inputSchema) || "—"} | ${t.description.split("\n")[0]} _(${flags})_ |`);
  }
  for (const r of domain.resources ?? []) out.push(`| resource | \`${r.kind === "static" ? r.uri : r.uriTemplate}\` | ${r.description.split("\n")[0]} |`);
  for (const p of domain.prompts ?? []) out.push(`| prompt \`${p.name}\` | ${args(p.argsSchema)} | ${p.description.split("\n")[0]} |`);
  for (const r of domain.routes ?? []) out.push(`| HTTP | \`${r.method} ${r.path}\` | JSON API beside MCP |`);
  out.push("");
}

const readme = readFileSync(README, "utf8");
const start = "<!-- tools:start -->";
const end = "<!-- tools:end -->";
const i = readme.indexOf(start);
const j = readme.indexOf(end);
if (i < 0 || j < 0) throw new Error("README.md has no tools markers");
writeFileSync(README, readme.slice(0, i + start.length) + "\n" + out.join("\n") + "\n" + readme.slice(j));
console.log(`README.md: tools of ${out.filter((l) => l.startsWith("### ")).length} domains written`);
