// Loads the demo data into the running emulators (`npm start` runs this in a process of its own,
// so the seeders' libraries do not stay resident): the demo accounts, then each domain's
// scripts/demo/<domain>.ts. Prints one line per step: `token <alice's ID token>` once the accounts
// exist, `done` when everything is in.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { initializeApp } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import { firestore } from "../../functions/src/platform/firebase.js";
import type { DemoContext } from "../demo/context.js";
import { demoIdToken, ensureDemoUsers } from "../demo/auth.js";
import { DEMO_USERS } from "../demo/users.js";
import { DOMAINS } from "../domains.js";

const app = initializeApp({ projectId: process.env.GCLOUD_PROJECT ?? "demo-mcp-suite" });
const ctx: DemoContext = {
  // The platform's handle on the same app: seeders may call domain code, which uses it too.
  db: firestore(),
  auth: getAuth(app),
  users: DEMO_USERS,
  log: (message) => console.log(message),
};

await ensureDemoUsers(ctx.auth);
ctx.log(`users: ${Object.values(DEMO_USERS).map((u) => `${u.email} (${u.uid})`).join(", ")}`);
console.log(`token ${await demoIdToken(DEMO_USERS.alice)}`);
for (const domain of DOMAINS) {
  const file = fileURLToPath(new URL(`../demo/${domain}.ts`, import.meta.url));
  if (!existsSync(file)) continue;
  const started = Date.now();
  const { seed } = (await import(file)) as { seed(ctx: DemoContext): Promise<void> };
  await seed(ctx);
  ctx.log(`${domain}: ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
console.log("done");
process.exit(0);
