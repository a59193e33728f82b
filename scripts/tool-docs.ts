// The tool tables of docs/tools.md, built from the definitions themselves (names, arguments,
// annotations, resources, prompts, routes). scripts/gen-tool-docs.ts writes them into that page;
// test/foundation/readme.test.ts checks the page still matches.
import { z } from "zod";
import { isOpen } from "../functions/src/auth/policy.js";
import { servesMcp, type Served } from "../functions/src/http/service.js";
import { DOMAINS, DOMAINS_DIR } from "./domains.js";

/** The page the tables are generated into. */
export const TOOLS_DOC = new URL("../docs/tools.md", import.meta.url);
export const START = "<!-- tools:start -->";
export const END = "<!-- tools:end -->";

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

export async function toolDocs(): Promise<string> {
  const out: string[] = [];
  for (const name of DOMAINS) {
    const domain = (await import(new URL(`${name}/index.ts`, DOMAINS_DIR).href)).default as Served;
    if (!servesMcp(domain)) continue;
    out.push(`### \`${name}\` — ${domain.title}`, "", domain.description, "");
    out.push(`Access: ${isOpen(domain.access) ? "open (no sign-in)" : "signed-in users (OAuth from Claude and other MCP clients, or a Firebase ID token), each sees only their own data"}.`, "");
    out.push("| tool | arguments | what it does |", "|---|---|---|");
    for (const t of domain.tools) {
      const view = t.ui ? (t.ui.visibility?.includes("model") === false ? `called by its view only, \`${t.ui.resourceUri}\`` : `view \`${t.ui.resourceUri}\``) : null;
      const flags = [t.annotations.readOnlyHint ? "read-only" : "writes", t.annotations.openWorldHint ? "open-world" : null, view].filter(Boolean).join(", ");
      out.push(`| \`${t.name}\` | ${args(t.inputSchema) || "—"} | ${t.description.split("\n")[0]} _(${flags})_ |`);
    }
    for (const r of domain.resources ?? []) out.push(`| resource | \`${r.kind === "static" ? r.uri : r.uriTemplate}\` | ${r.description.split("\n")[0]} |`);
    for (const p of domain.prompts ?? []) out.push(`| prompt \`${p.name}\` | ${args(p.argsSchema)} | ${p.description.split("\n")[0]} |`);
    for (const r of domain.routes ?? []) out.push(`| HTTP | \`${r.method} ${r.path}\` | ${r.description ?? "JSON API beside MCP"} |`);
    out.push("");
  }
  return out.join("\n");
}

/** The generated block as it stands between the markers of a page. */
export function currentBlock(page: string): string {
  const i = page.indexOf(START);
  const j = page.indexOf(END);
  if (i < 0 || j < 0) throw new Error("docs/tools.md has no tools markers");
  return page.slice(i + START.length, j).trim();
}
