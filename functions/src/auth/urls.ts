// The public URL of each function: the OAuth resource identifier of an MCP domain (RFC 8707)
// and the issuer of the authorization server. Locally the emulator's URL as the client used it;
// in production PUBLIC_BASE_URL (e.g. https://us-central1-<project>.cloudfunctions.net).
import type { IncomingHttpHeaders } from "node:http";
import type { FunctionName } from "../core/manifest.js";
import { FRONT_PORT, isEmulator, REGION } from "../core/where.js";

export { isEmulator, REGION } from "../core/where.js";
export const AUTHORIZATION_SERVER: FunctionName = "oauth";

export function projectId(): string {
  return process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? JSON.parse(process.env.FIREBASE_CONFIG ?? "{}").projectId ?? "demo-mcp-suite";
}

/** Where every function of this project is served, without a trailing slash. */
export function baseUrl(headers: IncomingHttpHeaders): string {
  if (isEmulator()) return `http://${headers.host ?? `127.0.0.1:${FRONT_PORT}`}/${projectId()}/${REGION}`;
  const configured = process.env.PUBLIC_BASE_URL?.replace(/\/+$/, "");
  return configured || `https://${REGION}-${projectId()}.cloudfunctions.net`;
}

export const functionUrl = (name: string, headers: IncomingHttpHeaders): string => `${baseUrl(headers)}/${name}`;
export const issuerUrl = (headers: IncomingHttpHeaders): string => functionUrl(AUTHORIZATION_SERVER, headers);

/**
 * The function a resource URL names, when it is one of this project's functions. Clients send the
 * URL the person configured, so a query (`…/figma?userIds=1`), a fragment or trailing slashes do
 * not change which function it is; tokens are bound to functionUrl(name), the canonical form.
 */
export function functionOf(resource: string, headers: IncomingHttpHeaders): string | undefined {
  let asked: URL;
  let base: URL;
  try {
    asked = new URL(resource);
    base = new URL(`${baseUrl(headers)}/`);
  } catch {
    return undefined;
  }
  if (asked.origin !== base.origin || asked.username || asked.password) return undefined;
  const path = asked.pathname.replace(/\/+$/, "");
  if (!path.startsWith(base.pathname)) return undefined;
  const name = path.slice(base.pathname.length);
  return /^[a-z][a-z0-9-]*$/.test(name) ? name : undefined;
}
