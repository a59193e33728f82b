// The suite's one list of what is protected and who pairs: each protected function with the
// title and scopes the consent page shows (what an app will be able to do), and the device
// clients that pair with the device flow. The domains and the oauth function import it from
// here; nothing keeps a copy. (A domain's own title and description are in its index.ts.)
export const PROTECTED = {
  dermal: { title: "DermalVision", scopes: { dermal: "Read your DermalVision profile, analysis sessions, reports and zone history (read-only)" } },
  knowledge: {
    title: "Knowledge base",
    scopes: {
      knowledge: "Search and read your knowledge base: highlights, notes and their metadata",
      "knowledge.write": "Save notes to your knowledge base and delete documents from it",
    },
  },
  fotos: { title: "Fotos", scopes: { fotos: "Take screenshots with your paired desktop agent, and read, annotate and analyse your screenshots" } },
  figma: { title: "Figma bridge", scopes: { figma: "Read and edit the Figma files you open with the paired plugin" } },
} as const;
export type ProtectedName = keyof typeof PROTECTED;

/**
 * Devices that pair with the device flow (by OAuth client id), and the function their tokens are
 * for; `noun` is how the pairing page asks ("Pair a … ?").
 */
export const DEVICE_CLIENTS = {
  "fotos-agent": { kind: "desktop-agent", noun: "desktop agent", resource: "fotos", scopes: ["fotos"], title: "Fotos desktop agent", does: "take screenshots of the computer it runs on when your AI agent asks" },
  // `fotos-agent mcp`, the stdio server an AI app on the computer starts: bridged, it acts as the
  // user's MCP client of the fotos function (a device token is no MCP client otherwise).
  "fotos-mcp": { kind: "fotos-mcp", noun: "connection for AI apps", resource: "fotos", scopes: ["fotos"], title: "Fotos connection for AI apps", does: "use your Fotos screenshots and tools from AI apps on the computer it runs on (Claude Desktop, Cursor) through fotos-agent mcp" },
  // `npm run kb:import -- --server <knowledge URL>`: the person's own import from a terminal.
  "kb-import": { kind: "kb-import", noun: "knowledge import", resource: "knowledge", scopes: ["knowledge", "knowledge.write"], title: "Knowledge import (kb:import)", does: "import Markdown, text, Kindle and Readwise files from the computer it runs on into your knowledge base" },
  "figma-plugin": { kind: "figma-plugin", noun: "Figma plugin", resource: "figma", scopes: ["figma"], title: "Figma plugin", does: "run your AI agent's commands in the Figma files you open" },
} as const;
export type DeviceClientId = keyof typeof DEVICE_CLIENTS;
export type DeviceKind = (typeof DEVICE_CLIENTS)[DeviceClientId]["kind"];
