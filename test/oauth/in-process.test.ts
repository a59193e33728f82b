// The oauth function's settings and limits as a deployment runs them, in-process against the real
// Firestore and Auth emulators: settings read once at cold start (each test loads the modules afresh
// with its environment), and bursts of parallel requests (which in the Functions emulator would each
// start a cold worker, so they are sent to the routes here).
import { afterEach, expect, test, vi } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import * as firebase from "../../functions/src/platform/firebase.js";

/** `npm run invite -- …` as the operator runs it (the emulator's hosts are in this environment). */
const invite = async (...args: string[]): Promise<string> => (await promisify(execFile)("bash", ["scripts/run.sh", "scripts/invite.ts", ...args], { timeout: 120_000 })).stdout;

/** The modules loaded afresh (settings read again), sharing this process's one Firestore client (its settings apply once). */
function freshModules(): void {
  vi.resetModules();
  vi.doMock("../../functions/src/platform/firebase.js", () => firebase);
}

// Firebase ID tokens at functions only where the deployment says so (ACCEPT_ID_TOKENS, read once at
// cold start): an ID token leaked from any app of the project must not act at every function.
test("a deployed function accepts no Firebase ID token by default; in the emulator every one; a typo stops the cold start", async () => {
  const { parseIdTokenSetting } = await import("../../functions/src/auth/id-tokens.js");
  expect(parseIdTokenSetting(undefined, false)).toEqual({ accept: "none" });
  expect(parseIdTokenSetting("", true)).toEqual({ accept: "all" });
  expect(parseIdTokenSetting("claim:mcp_tokens", false)).toEqual({ accept: "claim", claim: "mcp_tokens" });
  expect(() => parseIdTokenSetting("yes", false)).toThrow('ACCEPT_ID_TOKENS must be on, off or claim:<custom claim name>, not "yes"');
});

test("with ID tokens off, a person's real ID token is refused at a signed-in function; with claim:<name> only accounts holding that claim pass", async () => {
  const { createUser } = await import("../support/emulators.js");
  const { SIGNED_IN } = await import("../../functions/src/auth/policy.js");
  const verifierWith = async (setting: string) => {
    process.env.ACCEPT_ID_TOKENS = setting;
    freshModules();
    const { CallerVerifier } = await import("../../functions/src/auth/verify.js");
    return new CallerVerifier(SIGNED_IN, "https://oauth.example", "https://functions.example/fotos");
  };
  try {
    const person = await createUser();
    const off = await verifierWith("off");
    await expect(off.verifyAccessToken(person.token)).rejects.toThrow("This server does not accept Firebase ID tokens: connect through its OAuth sign-in");
    const byClaim = await verifierWith("claim:mcp_tokens");
    await expect(byClaim.verifyAccessToken(person.token)).rejects.toThrow("accepts Firebase ID tokens only from accounts its operator enabled");
    const enabled = await createUser({ claims: { mcp_tokens: true } });
    await byClaim.verifyAccessToken(enabled.token);
    expect(byClaim.caller).toMatchObject({ uid: enabled.uid, credential: "id-token" });
    const on = await verifierWith("on");
    await on.verifyAccessToken(person.token);
    expect(on.caller).toMatchObject({ uid: person.uid });
  } finally {
    delete process.env.ACCEPT_ID_TOKENS;
    vi.resetModules();
  }
}, 60_000);

// The oauth function's sign-in and device routes, in-process as it runs them (real Firestore and
// Auth emulators), loaded afresh with the environment a test sets: settings read at cold start, and
// bursts of parallel requests (which in the Functions emulator would each start a cold worker).
async function oauthInProcess() {
  process.env.FUNCTIONS_EMULATOR = "true"; // the emulator's signing key (it signs the device cookie)
  freshModules();
  const { signInRoutes } = await import("../../functions/src/domains/oauth/routes/signin.js");
  const { deviceRoutes } = await import("../../functions/src/domains/oauth/routes/device.js");
  const routes = [...signInRoutes, ...deviceRoutes];
  const find = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)!;
  const request = (headers: Record<string, string>, body: Record<string, string> = {}, query: Record<string, string> = {}, clientIp = "192.0.2.35") =>
    ({ headers, body, query, rawBody: Buffer.alloc(0), clientIp, baseUrl: "http://127.0.0.1/oauth" }) as never;
  const answer = (reply: { status: number; html?: string; headers?: Record<string, string | string[]> }) => {
    const cookies = [reply.headers?.["set-cookie"] ?? []].flat();
    return { status: reply.status, html: reply.html ?? "", session: cookies.find((c) => c.startsWith("__session="))?.split(";")[0] };
  };
  const post = async (path: string, fields: Record<string, string>, clientIp?: string) => {
    const form = await find("GET", "/signin").handle(request({}, {}, { next: "/apps" }, clientIp), {} as never);
    const cookie = String(form.headers!["set-cookie"]).split(";")[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.html!)![1]!;
    return answer(await find("POST", path).handle(request({ cookie }, { ...fields, csrf, next: "/apps" }, {}, clientIp), {} as never));
  };
  return {
    signIn: (email: string, password: string, clientIp?: string) => post("/signin", { email, password }, clientIp),
    askLink: (email: string) => post("/signin/email-link", { email }),
    enterCode: async (session: string, code: string, clientIp: string) => answer(await find("GET", "/device").handle(request({ cookie: session }, {}, { user_code: code }, clientIp), {} as never)),
  };
}

const savedEmulator = process.env.FUNCTIONS_EMULATOR;
afterEach(() => {
  delete process.env.ACCEPT_ID_TOKENS;
  if (savedEmulator === undefined) delete process.env.FUNCTIONS_EMULATOR;
  else process.env.FUNCTIONS_EMULATOR = savedEmulator;
  delete process.env.SIGN_UP;
  vi.resetModules();
});

// Failure limits count each try before it is made: a burst of parallel tries, all sent before any
// has failed, gets exactly the allowance (the account from one address: 10 wrong passwords; a
// person: 10 wrong device codes), not one more.
test("a burst of parallel wrong passwords gets exactly the allowance: each try is counted before it is made", async () => {
  const { createUser, emailFor } = await import("../support/emulators.js");
  const oauth = await oauthInProcess();
  const email = emailFor((await createUser()).uid);
  const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => oauth.signIn(email, `wrong-${i}`, "192.0.2.77")));
  expect(answers.filter((a) => a.html.includes("Wrong email or password."))).toHaveLength(10);
  expect(answers.filter((a) => a.status === 429 && a.html.includes("Too many attempts. Try again in"))).toHaveLength(4);
}, 120_000);

test("a burst of parallel wrong device codes from many addresses gets exactly the person's allowance", async () => {
  const { createUser, emailFor, TEST_PASSWORD } = await import("../support/emulators.js");
  const oauth = await oauthInProcess();
  const { session } = await oauth.signIn(emailFor((await createUser()).uid), TEST_PASSWORD);
  const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => oauth.enterCode(session!, `ZZZZ-BCD${"FGHJKLMNPQRSTV"[i]}`, `198.51.100.${i + 1}`)));
  expect(answers.filter((a) => a.status === 400 && a.html.includes("That code is unknown or expired"))).toHaveLength(10);
  expect(answers.filter((a) => a.status === 429 && a.html.includes("Too many wrong codes were entered"))).toHaveLength(4);
}, 120_000);

// Who may sign up (SIGN_UP, read once at cold start).
test("outside the operator's list, without an invitation or with an unconfirmed email, sign-in ends on a refusal page and no session", async () => {
  const { adminAuth, createUser, emailFor, TEST_PASSWORD } = await import("../support/emulators.js");
  const withSetting = async (setting: string) => {
    process.env.SIGN_UP = setting;
    const oauth = await oauthInProcess();
    return { signIn: async (email: string) => {
      const a = await oauth.signIn(email, TEST_PASSWORD);
      return { status: a.status, html: a.html, session: a.session !== undefined };
    }, askLink: oauth.askLink };
  };
  const person = await createUser();
  const email = emailFor(person.uid);
  const listedDomain = await withSetting("owner@elsewhere.example, @example.test");
  // Anyone can make a password account under any address: listed, but not confirmed, is not enough.
  expect(await listedDomain.signIn(email)).toMatchObject({ status: 403, session: false, html: expect.stringContaining(`Confirm that ${email} is yours first`) });
  await adminAuth().updateUser(person.uid, { emailVerified: true });
  expect(await listedDomain.signIn(email)).toMatchObject({ status: 303, session: true });

  const onlyOwner = await withSetting("owner@elsewhere.example");
  expect(await onlyOwner.signIn(email)).toMatchObject({ status: 403, session: false, html: expect.stringContaining(`This server is open only to the people its operator listed, and ${email} is not one of them. Ask the operator to add it.`) });
  // Asking for a link tells no one who may sign up: the same page, and no email sent.
  const sentTo = async (to: string) => {
    const { PROJECT } = await import("../support/emulators.js");
    const codes = (await (await fetch(`http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/emulator/v1/projects/${PROJECT}/oobCodes`)).json()) as { oobCodes: { email: string; requestType: string }[] };
    return codes.oobCodes.filter((c) => c.email === to && c.requestType === "EMAIL_SIGNIN").length;
  };
  const refusedLink = await onlyOwner.askLink(email);
  expect(refusedLink).toMatchObject({ status: 200, html: expect.stringContaining(`If <b>${email}</b> may sign in here, we sent it a sign-in link.`) });
  expect(refusedLink.html).not.toContain("is not one of them");
  expect(await sentTo(email)).toBe(0);
  expect(await listedDomain.askLink(email)).toMatchObject({ status: 200, html: expect.stringContaining(`If <b>${email}</b> may sign in here, we sent it a sign-in link.`) });
  expect(await sentTo(email)).toBe(1);

  const invitation = await withSetting("invitation");
  expect(await invitation.signIn(email)).toMatchObject({ status: 403, session: false, html: expect.stringContaining(`This server is open by invitation only, and ${email} has no invitation. Ask the operator for one.`) });
  // The operator invites with `npm run invite` (scripts/invite.ts), as docs/configuration.md says.
  expect(await invite(email)).toContain(`Invited in the emulator (${process.env.FIRESTORE_EMULATOR_HOST}): ${email}.`);
  expect(await invitation.signIn(email)).toMatchObject({ status: 303, session: true });
  expect(await invite("--list")).toContain(`  ${email}`);
  expect(await invite("--remove", email)).toContain(`Invitation taken back`);
  expect(await invitation.signIn(email)).toMatchObject({ status: 403, session: false });
  await expect(invite("not-an-address")).rejects.toThrow("Not an email address: not-an-address");

  expect(await (await withSetting("open")).signIn(email)).toMatchObject({ status: 303, session: true });
  await expect(withSetting("alice@, bob")).rejects.toThrow('SIGN_UP must be open, invitation, or emails and domains separated by commas (alice@example.com,@example.org), not "alice@, bob"');
}, 120_000);

// Narrowing SIGN_UP later ends the access accounts now outside it already had: every credential
// (access tokens, refresh, device credentials, ID tokens) is checked against the account's state.
test("an account a narrowed SIGN_UP no longer admits is refused at its next credential check; one it admits is not", async () => {
  const { adminAuth, createUser } = await import("../support/emulators.js");
  const stateWith = async (setting: string, uid: string) => {
    process.env.SIGN_UP = setting;
    freshModules();
    const { accountState } = await import("../../functions/src/auth/accounts.js");
    return accountState(uid);
  };
  const outsider = await createUser();
  const listed = await createUser();
  await adminAuth().updateUser(listed.uid, { emailVerified: true });
  const listedEmail = (await adminAuth().getUser(listed.uid)).email!;
  await expect(stateWith("open", outsider.uid)).resolves.toMatchObject({ validAfterSeconds: expect.any(Number) });
  await expect(stateWith(listedEmail, outsider.uid)).rejects.toThrow("is not one of them. Ask the operator to add it.");
  await expect(stateWith(listedEmail, listed.uid)).resolves.toMatchObject({ validAfterSeconds: expect.any(Number) });
}, 60_000);
