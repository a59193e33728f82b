// The public URL of each function: the OAuth resource identifier of an MCP domain (RFC 8707)
// and the issuer of the authorization server. Locally the emulator's URL as the client used it;
// in production PUBLIC_BASE_URL (e.g. https://us-central1-<project>.cloudfunctions.net).
import type { IncomingHttpHeaders } from "node:http";

export const REGION = "us-central1";
export const AUTHORIZATION_SERVER = "oauth";

export const isEmulator = (): boolean => process.env.FUNCTIONS_EMULATOR === "true";

export function projectId(): string {
  return process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? JSON.parse(process.env.FIREBASE_CONFIG ?? "{}").projectId ?? "demo-mcp-suite";
}

/** Where every function of this project is served, without a trailing slash. */
export function baseUrl(headers: IncomingHttpHeaders): string {
  if (isEmulator()) return `http://${headers.host ?? "127.0.0.1:5001"}/${projectId()}/${REGION}`;
  const configured = process.env.PUBLIC_BASE_URL?.replace(/\/+$/, "");
  return configured || `https://${REGION}-${projectId()}.cloudfunctions.net`;
}

export const functionUrl = (name: string, headers: IncomingHttpHeaders): string => `${baseUrl(headers)}/${name}`;
export const issuerUrl = (headers: IncomingHttpHeaders): string => functionUrl(AUTHORIZATION_SERVER, headers);

/** The function a resource URL names, when it is one of this project's functions. */
export function functionOf(resource: string, headers: IncomingHttpHeaders): string | undefined {
  const base = `${baseUrl(headers)}/`;
  const normalized = resource.replace(/#.*$/, "").replace(/\/+$/, "");
  if (!normalized.startsWith(base)) return undefined;
  const name = normalized.slice(base.length);
  return /^[a-z][a-z0-9-]*$/.test(name) ? name : undefined;
}
