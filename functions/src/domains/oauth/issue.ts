// Issuing tokens for a grant: a short-lived access token for one function's URL, and for a
// paired desktop agent a Firebase custom token (its uid is `device_<id>`, with the owner's uid
// and the device id as claims, so Firestore rules can limit it to its own capture requests).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { DeviceKind } from "../../auth/policy.js";
import type { GrantKind } from "../../auth/tokens.js";
import { signAccessToken } from "./signing.js";
import { functionUrl, issuerUrl } from "../../auth/urls.js";
import type { HttpRequest } from "../../http/route.js";
import { deviceFirebaseSignIn } from "../../auth/firebase-sign-in.js";
import { expiresIn, secret, sha256 } from "./store.js";
import type { FirebaseSignIn } from "../../contracts/oauth.js";

export const REFRESH_TOKEN_DAYS = 30;

export interface GrantRef {
  uid: string;
  grantId: string;
  grantKind: GrantKind;
  clientId: string;
  resource: string;
  scopes: string[];
  device?: { id: string; kind: DeviceKind; name: string };
}

export async function accessTokenFor(req: HttpRequest, g: GrantRef): Promise<{ access_token: string; token_type: "Bearer"; expires_in: number; scope: string }> {
  const { token, expiresIn: seconds } = await signAccessToken(issuerUrl(req.headers), {
    uid: g.uid,
    resource: g.resource,
    scopes: g.scopes,
    clientId: g.clientId,
    grantId: g.grantId,
    grantKind: g.grantKind,
    ...(g.device ? { device: g.device } : {}),
  });
  return { access_token: token, token_type: "Bearer", expires_in: seconds, scope: g.scopes.join(" ") };
}

/** A new refresh token (or device credential) and the record kept for it (by its hash only). */
export function refreshTokenRecord(g: GrantRef, { rotating }: { rotating: boolean }): { token: string; id: string; data: Record<string, unknown> } {
  const token = secret(g.grantKind === "device" ? "mcpdev" : "mcprt");
  const data = {
    uid: g.uid,
    grantId: g.grantId,
    grantKind: g.grantKind,
    clientId: g.clientId,
    resource: g.resource,
    scopes: g.scopes,
    device: g.device ?? null,
    rotating,
    createdAt: new Date(),
    // A device credential lives until the device is unpaired (or it is rotated); a client's refresh
    // token until it is used or 30 days pass.
    expiresAt: rotating && g.grantKind !== "device" ? expiresIn(REFRESH_TOKEN_DAYS * 24 * 3600) : null,
  };
  return { token, id: sha256(token), data };
}

// The successor of a rotated refresh token is kept encrypted under a key derived from the token it
// replaces, so a refresh repeated within the grace period gets the same successor back (never a
// second chain), and only whoever holds that token can read it; the database alone cannot.
const successorKey = (presented: string) => createHash("sha256").update(`successor:${presented}`).digest();

export function sealSuccessor(presented: string, successor: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", successorKey(presented), iv);
  const sealed = Buffer.concat([cipher.update(successor, "utf8"), cipher.final()]);
  return [iv, sealed, cipher.getAuthTag()].map((b) => b.toString("base64url")).join(".");
}

export function openSuccessor(presented: string, sealed: string): string | undefined {
  try {
    const [iv, data, tag] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
    const decipher = createDecipheriv("aes-256-gcm", successorKey(presented), iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(data!), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

export const resourceUrl = (req: HttpRequest, name: string): string => functionUrl(name, req.headers);

/** What a desktop agent needs to sign in to Firestore as itself: no keys, only public config. */
export const firebaseSignInFor = (g: GrantRef): Promise<FirebaseSignIn> => deviceFirebaseSignIn(g.uid, g.device!);
