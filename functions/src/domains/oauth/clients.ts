// Who is asking for access: a client identified by a metadata document URL (CIMD, what Claude
// uses) or one registered dynamically (RFC 7591, older clients). Redirect URIs must match exactly,
// except that a loopback redirect may use any port (native apps, RFC 8252 §7.3).
import { col } from "./store.js";
import { BUDGETS, callDependency, DependencyUnavailable } from "../../platform/deadline.js";
import { fetchClientMetadata, MetadataFetchError } from "./client-metadata.js";

export interface OAuthClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  /** Where the client's description came from, shown on the consent page. */
  host: string;
  registration: "metadata-document" | "dynamic";
  /** Whether it may use refresh tokens (its grant_types, when it lists them, include refresh_token). */
  mayRefresh: boolean;
}

/** A dynamically registered client never used to get a token is deleted after this long. */
export const UNUSED_CLIENT_DAYS = 7;

export class ClientError extends Error {}

const cache = new Map<string, { client: OAuthClient; at: number }>();
const CACHE_MS = 5 * 60_000;

export async function resolveClient(clientId: string): Promise<OAuthClient> {
  if (/^https?:\/\//i.test(clientId)) return fromMetadataDocument(clientId);
  if (!/^mcpclient_[A-Za-z0-9_-]{10,40}$/.test(clientId)) throw new ClientError("Unknown client_id: register the client first");
  const doc = await col("clients").doc(clientId).get();
  // Never-used registrations expire (a TTL policy deletes them; until it runs, they are refused here).
  if (!doc.exists || (doc.get("expiresAt") && doc.get("expiresAt").toMillis() < Date.now())) throw new ClientError("Unknown client_id: register the client first");
  const redirectUris = doc.get("redirect_uris") as string[];
  const grantTypes = doc.get("grant_types") as string[] | undefined;
  return { clientId, name: doc.get("client_name") ?? "Unnamed app", redirectUris, host: hostOf(redirectUris[0]), registration: "dynamic", mayRefresh: !grantTypes || grantTypes.includes("refresh_token") };
}

async function fromMetadataDocument(clientId: string): Promise<OAuthClient> {
  const hit = cache.get(clientId);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.client;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new ClientError("client_id is not a valid URL");
  }
  if (url.hash || url.username || url.password) throw new ClientError("client_id must not contain a fragment or credentials");
  if (url.pathname === "/" || /\/\.\.?(\/|$)/.test(url.pathname)) throw new ClientError("client_id must be a URL with a path (the metadata document), without dot segments");
  let doc: unknown;
  try {
    doc = await callDependency(BUDGETS.clientMetadata, (signal) => fetchClientMetadata(url, signal));
  } catch (err) {
    const why = err instanceof MetadataFetchError ? err.message : err instanceof DependencyUnavailable ? "it did not answer in time" : "fetch failed";
    throw new ClientError(`The client metadata document could not be used: ${why}`);
  }
  const d = (doc ?? {}) as Record<string, unknown>;
  if (d.client_id !== clientId) throw new ClientError("The client metadata document's client_id does not match the URL it was fetched from");
  // A metadata-document client is public: a document that carries a secret is not one.
  if (d.client_secret !== undefined || (d.token_endpoint_auth_method !== undefined && d.token_endpoint_auth_method !== "none")) {
    throw new ClientError("The client metadata document declares a client secret; only public clients (token_endpoint_auth_method none) are supported");
  }
  const redirectUris = Array.isArray(d.redirect_uris) ? d.redirect_uris.filter((u): u is string => typeof u === "string" && validRedirect(u)) : [];
  if (!redirectUris.length) throw new ClientError("The client metadata document lists no valid redirect_uris");
  const client: OAuthClient = {
    clientId,
    name: typeof d.client_name === "string" && d.client_name.trim() ? d.client_name.trim().slice(0, 80) : url.hostname,
    redirectUris,
    host: url.hostname,
    registration: "metadata-document",
    mayRefresh: !Array.isArray(d.grant_types) || d.grant_types.includes("refresh_token"),
  };
  if (cache.size > 500) cache.clear();
  cache.set(clientId, { client, at: Date.now() });
  return client;
}

const hostOf = (uri: string | undefined): string => {
  try {
    return new URL(uri ?? "").hostname;
  } catch {
    return "unknown";
  }
};

/**
 * Whether a redirect URI proves nothing about who receives the code: a loopback port or a custom
 * scheme can be taken by any program on the person's computer.
 */
export function unverifiableRedirect(uri: string): boolean {
  try {
    const u = new URL(uri);
    return u.protocol !== "https:";
  } catch {
    return true;
  }
}

const isLoopback = (u: URL) => u.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(u.hostname);

/** https anywhere, http only to loopback, or a private-use scheme of a native app; never a fragment. */
export function validRedirect(uri: string): boolean {
  try {
    const u = new URL(uri);
    if (u.hash) return false;
    if (u.protocol === "https:") return true;
    if (u.protocol === "http:") return isLoopback(u);
    return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(u.protocol); // reverse-domain custom scheme
  } catch {
    return false;
  }
}

export function redirectAllowed(client: OAuthClient, uri: string): boolean {
  if (client.redirectUris.includes(uri)) return true;
  let asked: URL;
  try {
    asked = new URL(uri);
  } catch {
    return false;
  }
  if (!isLoopback(asked)) return false;
  return client.redirectUris.some((registered) => {
    const r = new URL(registered);
    return isLoopback(r) && r.hostname === asked.hostname && r.pathname === asked.pathname && r.search === asked.search;
  });
}
