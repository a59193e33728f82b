// `npm run invite -- <email…>`: invites people to a deployment whose SIGN_UP is `invitation`
// (docs/configuration.md); `--remove <email…>` takes invitations back, `--list` shows them.
// Against the emulator when `npm start` is running; production only when asked for explicitly,
// with Application Default Credentials (`MCP_TARGET=production GCLOUD_PROJECT=<project> npm run invite -- …`).
import { initializeApp } from "firebase-admin/app";
import { FieldValue, getFirestore } from "firebase-admin/firestore";
import { INVITATIONS } from "../functions/src/auth/sign-up.js";

const USAGE = "Usage: npm run invite -- <email…>   |   npm run invite -- --remove <email…>   |   npm run invite -- --list";
const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;

const args = process.argv.slice(2);
const remove = args.includes("--remove");
const list = args.includes("--list");
const emails = args.filter((a) => !a.startsWith("--")).map((a) => a.trim().toLowerCase());
const bad = emails.filter((e) => !EMAIL.test(e));
if (args.includes("--help") || (list ? emails.length > 0 : !emails.length) || bad.length) {
  if (bad.length) console.error(`Not an email address: ${bad.join(", ")}`);
  console.error(USAGE);
  process.exit(2);
}

const project = process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT;
if (!process.env.FIRESTORE_EMULATOR_HOST && (process.env.MCP_TARGET !== "production" || !project || project.startsWith("demo-"))) {
  console.error(
    "No emulator suite is running, and production was not asked for.\n" +
      "  Local:      start `npm start` in another terminal, then run this again.\n" +
      "  Production: MCP_TARGET=production GCLOUD_PROJECT=<project> npm run invite -- <email…>",
  );
  process.exit(2);
}
const db = getFirestore(initializeApp(project ? { projectId: project } : {}));
const invitations = db.collection(INVITATIONS);
const target = process.env.FIRESTORE_EMULATOR_HOST ? `the emulator (${process.env.FIRESTORE_EMULATOR_HOST})` : `project ${project}`;

try {
  if (list) {
    const all = await invitations.get();
    console.log(all.empty ? `No invitations in ${target}.` : `Invited in ${target}:\n${all.docs.map((d) => `  ${d.id}`).join("\n")}`);
  } else if (remove) {
    await Promise.all(emails.map((e) => invitations.doc(e).delete()));
    console.log(`Invitation taken back in ${target}: ${emails.join(", ")}. Access they already had ends within a minute.`);
  } else {
    await Promise.all(emails.map((e) => invitations.doc(e).set({ invitedAt: FieldValue.serverTimestamp(), invitedBy: "npm run invite" })));
    console.log(`Invited in ${target}: ${emails.join(", ")}. They can sign in once SIGN_UP is \`invitation\` (with an email they confirm).`);
  }
} catch (err) {
  console.error(`The invitations could not be changed: ${(err as Error).message}`);
  process.exit(1);
}
