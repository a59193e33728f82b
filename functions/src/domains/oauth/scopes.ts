// Which functions the authorization server issues tokens for, and what each scope lets an app do
// (shown on the consent page). Kept here, not imported from the domains: no domain imports another.
export interface ProtectedResource {
  /** The function name (its URL's last segment). */
  name: string;
  title: string;
  scopes: Record<string, string>;
}

export const RESOURCES: ProtectedResource[] = [
  { name: "dermal", title: "DermalVision", scopes: { dermal: "Read your DermalVision profile, analysis sessions, reports and zone history (read-only)" } },
  { name: "knowledge", title: "Knowledge base", scopes: { knowledge: "Search and read your knowledge base: highlights, notes and their metadata (read-only)" } },
  { name: "fotos", title: "Fotos", scopes: { fotos: "Take screenshots with your paired desktop agent, and read, annotate and analyse your screenshots" } },
  { name: "figma", title: "Figma bridge", scopes: { figma: "Read and edit the Figma files you open with the paired plugin" } },
];

export const resourceByName = (name: string): ProtectedResource | undefined => RESOURCES.find((r) => r.name === name);

export const allScopes = (): Record<string, string> => Object.assign({}, ...RESOURCES.map((r) => r.scopes));

/** Devices that pair with the device flow, and the function their tokens are for. */
export const DEVICE_CLIENTS = {
  "fotos-agent": { kind: "desktop-agent", resource: "fotos", scopes: ["fotos"], title: "Fotos desktop agent", does: "take screenshots of this computer when your AI agent asks" },
  // `fotos-agent mcp`, the stdio server an AI app on the computer starts: bridged, it acts as the
  // user's MCP client of the fotos function (a device token is no MCP client otherwise).
  "fotos-mcp": { kind: "fotos-mcp", resource: "fotos", scopes: ["fotos"], title: "Fotos for AI apps on this computer", does: "use your Fotos screenshots and tools from AI apps on this computer (Claude Desktop, Cursor) through fotos-agent mcp" },
  "figma-plugin": { kind: "figma-plugin", resource: "figma", scopes: ["figma"], title: "Figma plugin", does: "run your AI agent's commands in the Figma files you open" },
} as const;
export type DeviceClientId = keyof typeof DEVICE_CLIENTS;
export const isDeviceClient = (id: string): id is DeviceClientId => Object.hasOwn(DEVICE_CLIENTS, id);
