// Ending a grant (the connected-apps page, token revocation): only the authorization server does.
import { getAuth } from "firebase-admin/auth";
import { FieldValue } from "firebase-admin/firestore";
import { grantRef } from "../../auth/grants.js";
import type { GrantKind } from "../../auth/tokens.js";
import { adminApp } from "../../platform/firebase.js";

/**
 * Revokes a grant: every token naming it stops working on the next request. An unpaired desktop
 * agent also loses its Firebase sign-in (uid `device_<id>`), which its Firestore listener uses.
 */
export async function revokeGrant(kind: GrantKind, id: string): Promise<void> {
  await grantRef(kind, id).update({ revokedAt: FieldValue.serverTimestamp() });
  if (kind === "device") {
    // Plugins never sign in to Firebase: no such user is fine.
    await getAuth(adminApp())
      .updateUser(`device_${id}`, { disabled: true })
      .catch((err: { code?: string }) => {
        if (err.code !== "auth/user-not-found") throw err;
      });
  }
}
