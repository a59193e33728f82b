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
    // Its refresh token is revoked too, so it cannot get a new ID token; the one it holds is
    // refused by every function (auth/verify.ts) and by the rules, which check the device document.
    const auth = getAuth(adminApp());
    const ignoreMissing = (err: { code?: string }) => {
      if (err.code !== "auth/user-not-found") throw err;
    };
    await auth.updateUser(`device_${id}`, { disabled: true }).catch(ignoreMissing);
    await auth.revokeRefreshTokens(`device_${id}`).catch(ignoreMissing);
  }
}
