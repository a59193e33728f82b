// A paired device's own Firestore sign-in: a Firebase custom token whose uid is `device_<id>`, with
// the owner's uid, the device id and its kind as claims, so firestore.rules can limit it to what is
// addressed to that device (the Fotos agent's capture requests, the Figma plugin's commands).
// Only public settings go with it: the project, the web API key, the emulators' hosts locally.
import { getAuth } from "firebase-admin/auth";
import type { DeviceKind } from "../core/manifest.js";
import type { FirebaseSignIn } from "../contracts/oauth.js";
import { adminApp } from "../platform/firebase.js";
import { projectId } from "./urls.js";

function webApiKey(): string {
  const key = process.env.FIREBASE_WEB_API_KEY;
  if (key) return key;
  if (process.env.FIREBASE_AUTH_EMULATOR_HOST) return "emulator";
  throw new Error("FIREBASE_WEB_API_KEY is not set: paired devices need it to sign in to Firestore (see README)");
}

export async function deviceFirebaseSignIn(owner: string, device: { id: string; kind: DeviceKind }): Promise<FirebaseSignIn> {
  const apiKey = webApiKey();
  const customToken = await getAuth(adminApp()).createCustomToken(`device_${device.id}`, { owner, device: device.id, kind: device.kind });
  return {
    firebase_custom_token: customToken,
    firebase: {
      projectId: projectId(),
      apiKey,
      ...(process.env.FIREBASE_AUTH_EMULATOR_HOST ? { authEmulatorHost: process.env.FIREBASE_AUTH_EMULATOR_HOST } : {}),
      ...(process.env.FIRESTORE_EMULATOR_HOST ? { firestoreEmulatorHost: process.env.FIRESTORE_EMULATOR_HOST } : {}),
    },
  };
}
