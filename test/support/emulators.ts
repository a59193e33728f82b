// Where the emulator suite is (set by `firebase emulators:exec`), and admin access to it for
// arranging test data. Tests never mock these: they are the real emulators.
import { getApps, initializeApp, type App } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import { getFirestore, type Firestore } from "firebase-admin/firestore";
import { randomUUID } from "node:crypto";
import { localFunctionPath } from "../../functions/src/core/where.js";

export const PROJECT = process.env.GCLOUD_PROJECT ?? "demo-mcp-suite";
const FUNCTIONS = process.env.FUNCTIONS_EMULATOR_HOST ?? "127.0.0.1:5002";
const AUTH_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? "127.0.0.1:9099";

/** URL of a domain's function (MCP at its root), e.g. functionUrl("mermaid", "/api/verify"). */
export function functionUrl(domain: string, path = ""): string {
  return `http://${FUNCTIONS}${localFunctionPath(PROJECT, domain)}${path}`;
}

function app(): App {
  return getApps()[0] ?? initializeApp({ projectId: PROJECT });
}

export function adminDb(): Firestore {
  return getFirestore(app());
}

export const adminAuth = () => getAuth(app());

export const TEST_PASSWORD = "test-password-123";
export const emailFor = (uid: string): string => `${uid.toLowerCase()}@example.test`;

export interface TestUser {
  uid: string;
  token: string;
}

/**
 * Creates a user in the Auth emulator (unique uid unless given) with optional custom claims and
 * returns a real ID token for it, as a signed-in app would send.
 */
export async function createUser(opts: { uid?: string; claims?: Record<string, unknown> } = {}): Promise<TestUser> {
  const uid = opts.uid ?? `test-${randomUUID().slice(0, 8)}`;
  // Every test user can also sign in on the sign-in pages (emailFor(uid) + TEST_PASSWORD). Set at
  // creation: changing a password later revokes the tokens issued before, as in production.
  await adminAuth()
    .createUser({ uid, email: emailFor(uid), password: TEST_PASSWORD })
    .catch((err: { code?: string }) => {
      if (err.code !== "auth/uid-already-exists" && err.code !== "auth/email-already-exists") throw err;
    });
  if (opts.claims) await adminAuth().setCustomUserClaims(uid, opts.claims);
  return { uid, token: await idTokenFor(uid) };
}

/** Exchanges a custom token for an ID token at the Auth emulator (what the client SDK does). */
export async function idTokenFor(uid: string): Promise<string> {
  const custom = await adminAuth().createCustomToken(uid);
  const res = await fetch(`http://${AUTH_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: custom, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string; error?: unknown };
  if (!body.idToken) throw new Error(`Auth emulator refused sign-in: ${JSON.stringify(body.error)}`);
  return body.idToken;
}
