// Issuing tokens for a grant: a short-lived access token for one function's URL, and for a
// paired desktop agent a Firebase custom token (its uid is `device_<id>`, with the owner's uid
// and the device id as claims, so Firestore rules can limit it to its own capture requests).
import { getAuth } from "firebase-admin/auth";
import type { DeviceKind } from "../../auth/policy.js";
import type { GrantKind } from "../../auth/tokens.js";
import { signAccessToken } from "./signing.js";
import { functionUrl, issuerUrl, projectId } from "../../auth/urls.js";
import type { HttpRequest } from "../../http/route.js";
import { adminApp } from "../../platform/firebase.js";
import { col, expiresIn, secret, sha256 } from "./store.js";

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

/** A new refresh token (or device credential) for a grant; only its hash is stored. */
export async function newRefreshToken(g: GrantRef, { rotating }: { rotating: boolean }): Promise<string> {
  const token = secret(g.grantKind === "device" ? "mcpdev" : "mcprt");
  await col("refreshTokens")
    .doc(sha256(token))
    .create({
      uid: g.uid,
      grantId: g.grantId,
      grantKind: g.grantKind,
      clientId: g.clientId,
      resource: g.resource,
      scopes: g.scopes,
      device: g.device ?? null,
      rotating,
      createdAt: new Date(),
      // A device credential lives until the device is unpaired; a client's until it is used or 30 days pass.
      expiresAt: rotating ? expiresIn(REFRESH_TOKEN_DAYS * 24 * 3600) : null,
    });
  return token;
}

function webApiKey(): string {
  const key = process.env.FIREBASE_WEB_API_KEY;
  if (key) return key;
  if (process.env.FIREBASE_AUTH_EMULATOR_HOST) return "emulator";
  throw new Error("FIREBASE_WEB_API_KEY is not set: desktop agents need it to sign in to Firestore (see README)");
}

export const resourceUrl = (req: HttpRequest, name: string): string => functionUrl(name, req.headers);

/** What a desktop agent needs to sign in to Firestore as itself: no keys, only public config. */
export async function firebaseSignInFor(g: GrantRef): Promise<Record<string, unknown>> {
  const customToken = await getAuth(adminApp()).createCustomToken(`device_${g.device!.id}`, { owner: g.uid, device: g.device!.id, kind: g.device!.kind });
  return {
    firebase_custom_token: customToken,
    firebase: {
      projectId: projectId(),
      apiKey: webApiKey(),
      ...(process.env.FIREBASE_AUTH_EMULATOR_HOST ? { authEmulatorHost: process.env.FIREBASE_AUTH_EMULATOR_HOST } : {}),
      ...(process.env.FIRESTORE_EMULATOR_HOST ? { firestoreEmulatorHost: process.env.FIRESTORE_EMULATOR_HOST } : {}),
    },
  };
}
