// Listening in Firestore (the window's only use of a package, the Firebase JS SDK): signed in as
// this device with the custom token the function hands out at register, the plugin watches its
// room's pending commands, claims each (pending → delivered: a rule-checked write that fails for a
// command already claimed, so each is taken once) and stamps its session's lastSeenAt every
// keep-alive, with no request held at the function (firestore.rules allow exactly these). Memory
// only: Figma's iframe has a `null` origin, with no IndexedDB or localStorage to persist to.
import { deleteApp, initializeApp } from "firebase/app";
import { connectAuthEmulator, inMemoryPersistence, initializeAuth, signInWithCustomToken } from "firebase/auth";
import { collection, connectFirestoreEmulator, doc, initializeFirestore, memoryLocalCache, onSnapshot, query, serverTimestamp, updateDoc, where } from "firebase/firestore";
import type { FirebaseSignIn } from "../../functions/src/contracts/oauth.js";
import { LAST_SEEN_FIELD, RELAY_COLLECTIONS, type PluginCommand } from "../../functions/src/contracts/figma-plugin.js";

export interface Listening {
  /** Stamps the session's lastSeenAt (the keep-alive); rejects when it is refused (the session is gone). */
  beat(): Promise<void>;
  /** Takes a pending command: true when this claim took it, false when it was taken or withdrawn already. */
  claim(commandId: string): Promise<boolean>;
  stop(): Promise<void>;
}

export interface ListenOptions {
  signIn: FirebaseSignIn;
  roomId: string;
  /** The room's pending commands, oldest first (whenever they change and are not none). */
  onPending(commands: PluginCommand[]): void;
  /** The listener stopped after it had started (refused, the session deleted…). */
  onError(err: Error): void;
  /** Longest wait for the sign-in and the first answer from the server. */
  startTimeoutMs: number;
}

let apps = 0;

/** Signs in and starts the listener; resolves once the server answered the query (not the cache). */
export async function listen(opts: ListenOptions): Promise<Listening> {
  const { firebase } = opts.signIn;
  const app = initializeApp({ projectId: firebase.projectId, apiKey: firebase.apiKey }, `mcp-bridge-${++apps}`);
  let unsubscribe: (() => void) | undefined;
  const stop = async () => {
    unsubscribe?.();
    await deleteApp(app).catch(() => undefined);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let beat: () => Promise<void> = () => Promise.reject(new Error("not listening"));
  let claim: (commandId: string) => Promise<boolean> = () => Promise.reject(new Error("not listening"));
  try {
    const started = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from Firestore within ${Math.round(opts.startTimeoutMs / 1000)} s`)), opts.startTimeoutMs);
      void (async () => {
        const auth = initializeAuth(app, { persistence: inMemoryPersistence });
        if (firebase.authEmulatorHost) connectAuthEmulator(auth, `http://${firebase.authEmulatorHost}`, { disableWarnings: true });
        await signInWithCustomToken(auth, opts.signIn.firebase_custom_token);
        const db = initializeFirestore(app, { localCache: memoryLocalCache() });
        if (firebase.firestoreEmulatorHost) {
          const [host, port] = firebase.firestoreEmulatorHost.split(":");
          connectFirestoreEmulator(db, host!, Number(port));
        }
        const session = doc(db, RELAY_COLLECTIONS.sessions, opts.roomId);
        let live = false;
        unsubscribe = onSnapshot(
          query(collection(session, RELAY_COLLECTIONS.commands), where("state", "==", "pending")),
          // With metadata changes: a command first seen while the stream was resuming (from the
          // cache, skipped below) is handed over again when the server confirms it, a change of
          // metadata only, which would otherwise raise no snapshot and leave the command unclaimed.
          { includeMetadataChanges: true },
          (snap) => {
            if (snap.metadata.fromCache) return; // only the server's answer counts (a denied query answers from the cache first)
            if (!live) {
              live = true;
              resolve();
            }
            if (snap.empty) return;
            const docs = [...snap.docs].sort((a, b) => (a.get("createdAt")?.toMillis?.() ?? 0) - (b.get("createdAt")?.toMillis?.() ?? 0));
            opts.onPending(docs.map((d) => ({ commandId: d.id, tool: String(d.get("tool")), args: JSON.parse(String(d.get("argsJson") ?? "{}")) as unknown })));
          },
          (err) => (live ? opts.onError(err) : reject(err)),
        );
        beat = () => updateDoc(session, { [LAST_SEEN_FIELD]: serverTimestamp() });
        claim = (commandId) =>
          updateDoc(doc(session, RELAY_COLLECTIONS.commands, commandId), { state: "delivered", deliveredAt: serverTimestamp() }).then(
            () => true,
            (err: { code?: string }) => {
              if (err.code === "permission-denied" || err.code === "not-found") return false;
              throw err;
            },
          );
      })().catch(reject);
    });
    await started;
    return { beat: () => beat(), claim: (id) => claim(id), stop };
  } catch (err) {
    await stop();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
