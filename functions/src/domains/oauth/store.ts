// What the authorization server keeps in Firestore. Every secret it hands out (codes, refresh
// tokens, device credentials, device codes) is stored only as its SHA-256; documents are keyed
// by that hash, so a lookup is one read and a leaked database holds nothing usable.
import { createHash, randomBytes } from "node:crypto";
import { firestore } from "../../platform/firebase.js";

export const COLLECTIONS = {
  /** Pending /authorize requests (10 minutes). */
  requests: "oauthRequests",
  /** Authorization codes by hash (60 seconds, single use). */
  codes: "oauthCodes",
  /** Refresh tokens and device credentials by hash. */
  refreshTokens: "oauthRefreshTokens",
  /** Dynamically registered clients (RFC 7591). */
  clients: "oauthClients",
  /** Remembered consent per user and client. */
  consents: "oauthConsents",
  /** Device authorization requests by device-code hash (RFC 8628). */
  deviceAuthorizations: "oauthDeviceAuthorizations",
} as const;

export const col = (name: keyof typeof COLLECTIONS) => firestore().collection(COLLECTIONS[name]);

export const sha256 = (value: string): string => createHash("sha256").update(value).digest("base64url");

/** A random secret of `bytes` bytes, URL-safe, with a readable prefix saying what it is. */
export const secret = (prefix: string, bytes = 32): string => `${prefix}_${randomBytes(bytes).toString("base64url")}`;

export const randomId = (): string => randomBytes(16).toString("hex");

export const expiresIn = (seconds: number): Date => new Date(Date.now() + seconds * 1000);
