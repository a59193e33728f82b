// Who may call what: one policy per domain's MCP root, and one per route beside it. The shared
// layer (http/endpoint.ts) enforces it before any handler runs.
import type { DeviceKind, FunctionManifest } from "../core/manifest.js";

export type CredentialKind =
  /** A Firebase Auth ID token (programmatic clients, tests, `npm run token`). */
  | "id-token"
  /** An access token our authorization server issued for this function's URL (Claude's connectors). */
  | "oauth"
  /** An access token of a paired device (the desktop agent, the Figma plugin). */
  | "device";

export type { DeviceKind } from "../core/manifest.js";

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
  /**
   * A page that acts on a session cookie (sign-in, consent, device, apps): localhost origins count
   * only in the emulator or where ALLOWED_ORIGINS lists them, since any program on the person's
   * computer can serve a page there. (MCP endpoints take bearer tokens, not cookies.)
   */
  cookies?: boolean;
}

export const OPEN: AccessPolicy = { accept: [] };
export const SIGNED_IN: AccessPolicy = { accept: ["id-token", "oauth"] };
export const device = (...kinds: DeviceKind[]): AccessPolicy => ({ accept: ["device"], devices: kinds, allowNullOrigin: kinds.includes("figma-plugin") });

export const isOpen = (policy: AccessPolicy): boolean => policy.accept.length === 0;

/**
 * The policy of a function's MCP endpoint, from its manifest: open without scopes; otherwise a
 * signed-in user's token carrying them (or an ID token), or a token of one of its device clients.
 */
export function manifestPolicy(manifest: FunctionManifest): AccessPolicy {
  if (!manifest.scopes) return OPEN;
  const devices = [...(manifest.devices ?? [])];
  const optional = new Set<string>(manifest.optionalScopes ?? []);
  return { ...SIGNED_IN, ...(devices.length ? { accept: [...SIGNED_IN.accept, "device"], devices } : {}), scopes: Object.keys(manifest.scopes).filter((s) => !optional.has(s)) };
}
