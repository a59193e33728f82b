// A grant is what a user approved: an OAuth client for one domain (`oauthGrants/{id}`) or a
// paired device (`devices/{id}`). Every access token names its grant, and every request checks
// that the grant still stands, so revoking on the connected-apps page (domains/oauth/grants.ts)
// works at once rather than at token expiry (one document read; bench/oauth.ts measures it).
import { FieldValue } from "firebase-admin/firestore";
import { firestore } from "../platform/firebase.js";
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
