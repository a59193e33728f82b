// Two guards run in-process as production runs them (outside the emulator, where these rules differ
// or cannot be provoked): cookie-bearing pages refuse localhost origins unless ALLOWED_ORIGINS lists
// them, and the rate limiter refuses (503 + Retry-After) when Firestore cannot be reached.
import { afterEach, expect, test, vi } from "vitest";
import { originAllowed } from "../../functions/src/http/origin.js";

const saved = { emulator: process.env.FUNCTIONS_EMULATOR, allowed: process.env.ALLOWED_ORIGINS, firestore: process.env.FIRESTORE_EMULATOR_HOST };
afterEach(() => {
  for (const [name, value] of [["FUNCTIONS_EMULATOR", saved.emulator], ["ALLOWED_ORIGINS", saved.allowed], ["FIRESTORE_EMULATOR_HOST", saved.firestore]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const from = (origin: string) => ({ get: (name: string) => (name.toLowerCase() === "origin" ? origin : undefined) }) as never;

test("in production a localhost page may not post to a cookie-bearing page, unless ALLOWED_ORIGINS lists it", () => {
  delete process.env.FUNCTIONS_EMULATOR;
  delete process.env.ALLOWED_ORIGINS;
  const self = "us-central1-demo.cloudfunctions.net";
  for (const origin of ["http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:5173"]) {
    expect(originAllowed(from(origin), { selfHost: self, cookies: true }), origin).toBe(false);
    // MCP endpoints take bearer tokens, not cookies: the Inspector's web UI on localhost keeps working.
    expect(originAllowed(from(origin), { selfHost: self }), origin).toBe(true);
  }
  expect(originAllowed(from(`https://${self}`), { selfHost: self, cookies: true })).toBe(true);
  process.env.ALLOWED_ORIGINS = "localhost";
  expect(originAllowed(from("http://localhost:3000"), { selfHost: self, cookies: true })).toBe(true);
  process.env.FUNCTIONS_EMULATOR = "true";
  delete process.env.ALLOWED_ORIGINS;
  expect(originAllowed(from("http://localhost:3000"), { selfHost: self, cookies: true })).toBe(true);
});

test("a rate limit whose store cannot be reached refuses with 503 and Retry-After, never lets the request through", async () => {
  // Nothing listens on port 9 (discard): every Firestore call of this process fails.
  process.env.FIRESTORE_EMULATOR_HOST = "127.0.0.1:9";
  const { limited } = await import("../../functions/src/domains/oauth/limits.js");
  const req = { clientIp: "192.0.2.1", headers: {}, query: {}, body: undefined, rawBody: Buffer.alloc(0), baseUrl: "http://x" } as never;
  const outcome = await limited(req, { bucket: "guards-test", limit: 5, windowSeconds: 60 }).then(
    (wait) => ({ allowed: wait === undefined }),
    (err: { kind?: string; status?: number; extra?: { retryAfterSeconds?: number }; message: string }) => err,
  );
  expect(outcome).toMatchObject({ kind: "unavailable", status: 503, extra: { retryAfterSeconds: expect.any(Number) } });
  expect((outcome as { message: string }).message).toMatch(/try again in \d+ seconds/);
}, 120_000);

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
    vi.resetModules();
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
    expect((await byClaim.verifyAccessToken(enabled.token)).extra).toMatchObject({ caller: { uid: enabled.uid, credential: "id-token" } });
    const on = await verifierWith("on");
    expect((await on.verifyAccessToken(person.token)).extra).toMatchObject({ caller: { uid: person.uid } });
  } finally {
    delete process.env.ACCEPT_ID_TOKENS;
    vi.resetModules();
  }
}, 60_000);

// Who may sign up (SIGN_UP, read once at cold start): the sign-in routes as the oauth function runs
// them, in-process, with the setting a deployment would have.
test("outside the operator's list, without an invitation or with an unconfirmed email, sign-in ends on a refusal page and no session", async () => {
  const { adminAuth, adminDb, createUser, emailFor, TEST_PASSWORD } = await import("../support/emulators.js");
  const savedEmulator = process.env.FUNCTIONS_EMULATOR;
  process.env.FUNCTIONS_EMULATOR = "true"; // the emulator's signing key (it signs the device cookie)
  const request = (headers: Record<string, string>, body: Record<string, string> = {}) =>
    ({ headers, body, query: { next: "/apps" }, rawBody: Buffer.alloc(0), clientIp: "192.0.2.35", baseUrl: "http://127.0.0.1/oauth" }) as never;
  const withSetting = async (setting: string) => {
    process.env.SIGN_UP = setting;
    vi.resetModules();
    const { signInRoutes } = await import("../../functions/src/domains/oauth/routes/signin.js");
    const find = (method: string, path: string) => signInRoutes.find((r) => r.method === method && r.path === path)!;
    const post = async (path: string, fields: Record<string, string>) => {
      const form = await find("GET", "/signin").handle(request({}), {} as never);
      const cookie = String(form.headers!["set-cookie"]).split(";")[0]!;
      const csrf = /name="csrf" value="([^"]+)"/.exec(form.html!)![1]!;
      const reply = await find("POST", path).handle(request({ cookie }, { ...fields, csrf, next: "/apps" }), {} as never);
      const cookies = [reply.headers?.["set-cookie"] ?? []].flat();
      return { status: reply.status, html: reply.html ?? "", session: cookies.some((c) => c.startsWith("__session=")) };
    };
    return { signIn: (email: string) => post("/signin", { email, password: TEST_PASSWORD }), askLink: (email: string) => post("/signin/email-link", { email }) };
  };
  try {
    const person = await createUser();
    const email = emailFor(person.uid);
    const listedDomain = await withSetting("owner@elsewhere.example, @example.test");
    // Anyone can make a password account under any address: listed, but not confirmed, is not enough.
    expect(await listedDomain.signIn(email)).toMatchObject({ status: 403, session: false, html: expect.stringContaining(`Confirm that ${email} is yours first`) });
    await adminAuth().updateUser(person.uid, { emailVerified: true });
    expect(await listedDomain.signIn(email)).toMatchObject({ status: 303, session: true });

    const onlyOwner = await withSetting("owner@elsewhere.example");
    expect(await onlyOwner.signIn(email)).toMatchObject({ status: 403, session: false, html: expect.stringContaining(`This server is open only to the people its operator listed, and ${email} is not one of them. Ask the operator to add it.`) });
    expect(await onlyOwner.askLink(email)).toMatchObject({ status: 403, html: expect.stringContaining("is not one of them") });

    const invitation = await withSetting("invitation");
    expect(await invitation.signIn(email)).toMatchObject({ status: 403, session: false, html: expect.stringContaining(`This server is open by invitation only, and ${email} has no invitation. Ask the operator for one.`) });
    await adminDb().collection("signUpInvitations").doc(email).set({ invitedBy: "operator" });
    expect(await invitation.signIn(email)).toMatchObject({ status: 303, session: true });

    expect(await (await withSetting("open")).signIn(email)).toMatchObject({ status: 303, session: true });
    await expect(withSetting("alice@, bob")).rejects.toThrow('SIGN_UP must be open, invitation, or emails and domains separated by commas (alice@example.com,@example.org), not "alice@, bob"');
  } finally {
    delete process.env.SIGN_UP;
    if (savedEmulator === undefined) delete process.env.FUNCTIONS_EMULATOR;
    else process.env.FUNCTIONS_EMULATOR = savedEmulator;
    vi.resetModules();
  }
}, 120_000);
