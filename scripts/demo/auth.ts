// Demo accounts in the Auth emulator, and ID tokens for them (what a signed-in app would hold).
import type { Auth } from "firebase-admin/auth";
import { DEMO_USERS, type DemoUser } from "./users.js";

export async function ensureDemoUsers(auth: Auth): Promise<void> {
  for (const user of Object.values(DEMO_USERS) as DemoUser[]) {
    const props = { email: user.email, password: user.password, displayName: user.displayName, emailVerified: true };
    await auth.updateUser(user.uid, props).catch(async (err: { code?: string }) => {
      if (err.code !== "auth/user-not-found") throw err;
      await auth.createUser({ uid: user.uid, ...props });
    });
    await auth.setCustomUserClaims(user.uid, user.claims ?? null);
  }
}

/** Signs in with email + password at the Auth emulator and returns the ID token (valid 1 hour). */
export async function demoIdToken(user: DemoUser): Promise<string> {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!host) throw new Error("The Auth emulator is not running: start it with `npm start` first.");
  const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string; error?: { message?: string } };
  if (!body.idToken) throw new Error(`Sign-in failed for ${user.email}: ${body.error?.message ?? res.status}`);
  return body.idToken;
}
