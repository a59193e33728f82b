// Who may call what: one policy per domain's MCP root, and one per route beside it. The shared
// layer (http/endpoint.ts) enforces it before any handler runs.
export type CredentialKind =
  /** A Firebase Auth ID token (programmatic clients, tests, `npm run token`). */
  | "id-token"
  /** An access token our authorization server issued for this function's URL (Claude's connectors). */
  | "oauth"
  /** An access token of a paired device (the desktop agent, the Figma plugin). */
  | "device";

export type DeviceKind = "desktop-agent" | "figma-plugin" | "fotos-mcp";

export interface AccessPolicy {
  /** Credential kinds accepted; empty = open, no sign-in. */
  accept: CredentialKind[];
  /** Which devices, when `accept` includes "device". */
  devices?: DeviceKind[];
  /** Scopes an OAuth access token must carry (ID tokens are the user themself and carry all). */
  scopes?: string[];
  /** Accept browser requests with `Origin: null` (a sandboxed iframe, e.g. Figma's plugin UI). */
  allowNullOrigin?: boolean;
  /** A public document (discovery metadata, keys): any origin may read it, with CORS `*`. */
  anyOrigin?: boolean;
}

export const OPEN: AccessPolicy = { accept: [] };
export const SIGNED_IN: AccessPolicy = { accept: ["id-token", "oauth"] };
export const device = (...kinds: DeviceKind[]): AccessPolicy => ({ accept: ["device"], devices: kinds, allowNullOrigin: kinds.includes("figma-plugin") });

export const isOpen = (policy: AccessPolicy): boolean => policy.accept.length === 0;
