// Who may use this deployment, the operator's choice set once (SIGN_UP, read at cold start; a typo
// stops the instance). Anyone can create an account in a Firebase project with its public web API
// key (every paired device holds it), so who may sign up is decided where accounts get in: the
// sign-in pages, before a session, and Firebase ID tokens where they are accepted.
//   open                               anyone who signs in (the default)
//   invitation                         an email with an invitation: a document
//                                      signUpInvitations/<email in lower case> (Firebase console)
//   alice@example.com, @example.org    these emails, and every email of these domains
// Outside `open` the email must be verified (a sign-in link, Google, or the operator): anyone can
// create a password account under someone else's address.
import { firestore } from "../platform/firebase.js";

export type SignUpPolicy = { mode: "open" } | { mode: "invitation" } | { mode: "list"; emails: Set<string>; domains: Set<string> };

export const SIGN_UP_SETTING = "SIGN_UP";
export const INVITATIONS = "signUpInvitations";

export function parseSignUp(raw: string | undefined): SignUpPolicy {
  const value = raw?.trim().toLowerCase() ?? "";
  if (value === "" || value === "open") return { mode: "open" };
  if (value === "invitation") return { mode: "invitation" };
  const emails = new Set<string>();
  const domains = new Set<string>();
  for (const entry of value.split(",").map((e) => e.trim()).filter(Boolean)) {
    if (/^[^@\s]+@[a-z0-9.-]+\.[a-z]{2,}$/.test(entry)) emails.add(entry);
    else if (/^@?[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(entry)) domains.add(entry.replace(/^@/, ""));
    else throw new Error(`${SIGN_UP_SETTING} must be open, invitation, or emails and domains separated by commas (alice@example.com,@example.org), not "${raw}"`);
  }
  if (!emails.size && !domains.size) throw new Error(`${SIGN_UP_SETTING} lists no email or domain: "${raw}"`);
  return { mode: "list", emails, domains };
}

export const signUp: SignUpPolicy = parseSignUp(process.env[SIGN_UP_SETTING]);

/** Why this account may not use the deployment, as a sentence for the person; undefined when it may. */
export async function signUpRefusal(account: { email?: string | undefined; emailVerified?: boolean | undefined }, policy: SignUpPolicy = signUp): Promise<string | undefined> {
  if (policy.mode === "open") return undefined;
  const email = account.email?.trim().toLowerCase();
  if (!email) return "This server admits only accounts with an email address: sign in with your email.";
  const admitted =
    policy.mode === "list"
      ? policy.emails.has(email) || policy.domains.has(email.slice(email.lastIndexOf("@") + 1))
      : (await firestore().collection(INVITATIONS).doc(email).get()).exists;
  if (!admitted) {
    return policy.mode === "list"
      ? `This server is open only to the people its operator listed, and ${email} is not one of them. Ask the operator to add it.`
      : `This server is open by invitation only, and ${email} has no invitation. Ask the operator for one.`;
  }
  if (!account.emailVerified) return `Confirm that ${email} is yours first: sign in once with a sign-in link sent to it, or ask the operator to mark it verified.`;
  return undefined;
}
