// A grant is what a user approved: an OAuth client for one domain (`oauthGrants/{id}`) or a
// paired device (`devices/{id}`). Every access token names its grant, and every request checks
// that the grant still stands, so revoking on the connected-apps page works at once rather than
// at token expiry (one document read; measured by bench/oauth.ts).
import { getAuth } from "firebase-admin/auth";
import { FieldValue } from "firebase-admin/firestore";
import { adminApp, firestore } from "../platform/firebase.js";
import type { DeviceKind } from "./policy.js";
import type { GrantKind } from "./tokens.js";

export const GRANTS = "oauthGrants";
export const DEVICES = "devices";

export interface DeviceRecord {
  uid: string;
  kind: DeviceKind;
  name: string;
  credentialHash: string;
  createdAt: FirebaseFirestore.Timestamp;
  lastUsedAt?: FirebaseFirestore.Timestamp;
  revokedAt?: FirebaseFirestore.Timestamp;
}

export interface GrantRecord {
  uid: string;
  clientId: string;
  clientName: string;
  clientHost: string;
  resource: string;
  scopes: string[];
  createdAt: FirebaseFirestore.Timestamp;
  lastUsedAt?: FirebaseFirestore.Timestamp;
  revokedAt?: FirebaseFirestore.Timestamp;
}

export const grantRef = (kind: GrantKind, id: string) => firestore().collection(kind === "device" ? DEVICES : GRANTS).doc(id);

/**
 * Revokes a grant: every token naming it stops working on the next request. An unpaired desktop
 * agent also loses its Firebase sign-in (uid `device_<id>`), which its Firestore listener uses.
 */
export async function revokeGrant(kind: GrantKind, id: string): Promise<void> {
  await grantRef(kind, id).update({ revokedAt: FieldValue.serverTimestamp() });
  if (kind === "device") {
    // Plugins never sign in to Firebase: no such user is fine.
    // Its refresh token is revoked too, so it cannot get a new ID token; the one it holds is
    // refused by every function (verify.ts) and by the rules, which check the device document.
    const auth = getAuth(adminApp());
    const ignoreMissing = (err: { code?: string }) => {
      if (err.code !== "auth/user-not-found") throw err;
    };
    await auth.updateUser(`device_${id}`, { disabled: true }).catch(ignoreMissing);
    await auth.revokeRefreshTokens(`device_${id}`).catch(ignoreMissing);
  }
}

const TOUCH_EVERY_MS = 60_000;
const touched = new Map<string, number>();

/** True when the grant exists, belongs to `uid` and is not revoked; records its last use (at most once a minute). */
export async function grantActive(kind: GrantKind, id: string, uid: string): Promise<boolean> {
  const ref = grantRef(kind, id);
  const data = (await ref.get()).data() as { uid?: string; revokedAt?: unknown } | undefined;
  if (!data || data.uid !== uid || data.revokedAt) return false;
  const now = Date.now();
  if ((touched.get(id) ?? 0) + TOUCH_EVERY_MS < now) {
    if (touched.size > 10_000) touched.clear();
    touched.set(id, now);
    ref.update({ lastUsedAt: FieldValue.serverTimestamp() }).catch(() => undefined);
  }
  return true;
}
