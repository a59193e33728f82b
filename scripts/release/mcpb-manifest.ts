// The Claude Desktop bundle's manifest.json (MCPB manifest 0.3) for the fotos stdio server. The
// tools and prompts it lists are the domain definition's own (names and descriptions), so the
// listing cannot drift from what the server announces. The form Claude Desktop shows from
// `user_config`: the optional fotos function URL (bridged when given, standalone otherwise) and
// the vision providers' keys, which it keeps in the OS keychain (`sensitive`).
import type { DomainDefinition } from "../../functions/src/mcp/define.js";

type Members = Pick<DomainDefinition, "name" | "title" | "description" | "tools" | "prompts">;

/** The settings of the extension's form, each passed to the server as the environment variable named. */
export const USER_CONFIG = {
  fotos_url: {
    env: "FOTOS_SERVER",
    type: "string",
    title: "Fotos function URL (optional)",
    description:
      "Your fotos function's URL, e.g. https://us-central1-<project>.cloudfunctions.net/fotos, to keep screenshots in your account (the first tool call asks you to confirm a code once). Leave empty to keep everything on this computer.",
    sensitive: false,
  },
  anthropic_api_key: { env: "ANTHROPIC_API_KEY", type: "string", title: "Anthropic API key (optional)", description: "For analyze_screenshot with provider claude, on this computer.", sensitive: true },
  openai_api_key: { env: "OPENAI_API_KEY", type: "string", title: "OpenAI API key (optional)", description: "For analyze_screenshot with provider openai, on this computer.", sensitive: true },
  gemini_api_key: { env: "GEMINI_API_KEY", type: "string", title: "Gemini API key (optional)", description: "For analyze_screenshot with provider gemini, on this computer.", sensitive: true },
  ollama_url: { env: "OLLAMA_URL", type: "string", title: "Ollama URL (optional)", description: "For analyze_screenshot with provider ollama (default http://127.0.0.1:11434).", sensitive: false },
} as const;

export const BUNDLE_ENTRY = "server/index.js";

export function bundleManifest(domain: Members, opts: { version: string; platforms: string[] }) {
  return {
    manifest_version: "0.3",
    name: "fotos-mcp",
    display_name: domain.title,
    version: opts.version,
    description: domain.description,
    long_description:
      "Takes screenshots of this computer's screen (fullscreen, one monitor, or a window by title), reads their text (OCR, on this computer), annotates them, covers personal data and secrets, and asks a vision model about them. Standalone, screenshots stay in a private temporary folder; with your fotos function's URL they are kept in your account.",
    author: { name: "Fotos" },
    icon: "icon.png",
    server: {
      type: "node",
      entry_point: BUNDLE_ENTRY,
      mcp_config: {
        command: "node",
        args: [`\${__dirname}/${BUNDLE_ENTRY}`],
        env: Object.fromEntries(Object.entries(USER_CONFIG).map(([key, c]) => [c.env, `\${user_config.${key}}`])),
      },
    },
    tools: domain.tools.map((t) => ({ name: t.name, description: t.description })),
    tools_generated: false,
    prompts: (domain.prompts ?? []).map((p) => {
      const names = Object.keys(p.argsSchema.shape);
      return { name: p.name, description: p.description, arguments: names, text: `${p.description} ${names.map((n) => `${n}: \${arguments.${n}}`).join(", ")}` };
    }),
    prompts_generated: false,
    keywords: ["screenshot", "ocr", "redaction", "vision", "mcp"],
    license: "MIT",
    compatibility: { platforms: opts.platforms, runtimes: { node: ">=20.9.0" } },
    user_config: Object.fromEntries(
      Object.entries(USER_CONFIG).map(([key, c]) => [key, { type: c.type, title: c.title, description: c.description, required: false, sensitive: c.sensitive }]),
    ),
  };
}
