// The device-flow client's edge paths (functions/src/contracts/device-flow.ts) and the agent's calls
// over it (desktop-agent/src/api.ts), against a local server that answers as the oauth and fotos
// functions do at the moments a real server rarely shows on cue: slow_down, a passing 503, a
// dropped connection, a refused access token. The happy paths run against the real functions in
// test/oauth/device-client.test.ts and the agent tests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AccessTokens, awaitConfirmation, type DeviceCode, type Endpoints } from "../../functions/src/contracts/device-flow.js";
import { AGENT_ROUTES } from "../../functions/src/contracts/fotos-agent.js";
import { FotosApi, RefusedError, RevokedError } from "../../desktop-agent/src/api.js";
import { deviceClient } from "../../desktop-agent/src/pairing.js";
import { loadCredentials, saveCredentials } from "../../desktop-agent/src/config.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Answer = { status: number; body: unknown } | "drop";
interface Seen {
  at: number;
  path: string;
  form: URLSearchParams;
  authorization: string | undefined;
}

let server: Server;
let base: string;
let answers: Answer[] = [];
let seen: Seen[] = [];

/** The next answers the server gives, in order (then 500 "no answer planned"). */
const plan = (...next: Answer[]) => {
  answers = next;
  seen = [];
};

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ at: Date.now(), path: req.url ?? "", form: new URLSearchParams(body), authorization: req.headers.authorization });
      const next = answers.shift() ?? { status: 500, body: { error: "no answer planned" } };
      if (next === "drop") return req.socket.destroy();
      res.writeHead(next.status, { "content-type": "application/json" }).end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const endpoints = (): Endpoints => ({ deviceAuthorization: `${base}/device_authorization`, token: `${base}/token` });
const code = (interval: number): DeviceCode => ({ deviceCode: "dc", userCode: "BCDF-GHJK", verificationUri: `${base}/device`, verificationUriComplete: `${base}/device?user_code=BCDF-GHJK`, expiresIn: 600, interval });
const agent = deviceClient("fotos-agent", "https://fotos.example");
const pending = { status: 400, body: { error: "authorization_pending" } };
const granted = { status: 200, body: { access_token: "at-1", token_type: "Bearer", expires_in: 3600, scope: "fotos", refresh_token: "mcpdev_x", device_id: "d1", resource: "https://fotos.example" } };

describe("awaitConfirmation", () => {
  test("slow_down adds 5 s to the interval; a 503 and a dropped connection are waited out, not fatal", async () => {
    plan({ status: 503, body: { error: "temporarily_unavailable" } }, "drop", { status: 400, body: { error: "slow_down" } }, pending, granted);
    const paired = await awaitConfirmation(endpoints(), agent, code(1));
    expect(paired).toMatchObject({ deviceId: "d1", refreshToken: "mcpdev_x", accessToken: "at-1", resource: "https://fotos.example" });
    expect(seen.map((s) => s.form.get("grant_type"))).toEqual(Array(5).fill("urn:ietf:params:oauth:grant-type:device_code"));
    // The polls before slow_down are 1 s apart at least; the one after it 6 s.
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(seen[3]!.at - seen[2]!.at).toBeGreaterThanOrEqual(6000);
  }, 30_000);

  test("an error the flow cannot wait out ends it with the server's sentence", async () => {
    plan({ status: 400, body: { error: "invalid_grant", error_description: "Unknown device_code: start pairing again" } });
    await expect(awaitConfirmation(endpoints(), agent, code(0))).rejects.toMatchObject({ code: "invalid_grant", message: "Pairing failed: Unknown device_code: start pairing again" });
  });

  test("an expired code says how to pair this server again", async () => {
    plan({ status: 400, body: { error: "expired_token" } });
    await expect(awaitConfirmation(endpoints(), agent, code(0))).rejects.toMatchObject({
      code: "expired_token",
      message: "The pairing code expired before it was confirmed: run `fotos-agent pair --server https://fotos.example` again",
    });
  });
});

describe("AccessTokens", () => {
  test("callers at the same moment share one refresh", async () => {
    plan({ status: 200, body: { access_token: "at-2", token_type: "Bearer", expires_in: 3600, scope: "fotos" } });
    const tokens = new AccessTokens(endpoints().token, agent, "mcpdev_x");
    expect(await Promise.all([tokens.get(), tokens.get(), tokens.get()])).toEqual(["at-2", "at-2", "at-2"]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.form.get("grant_type")).toBe("refresh_token");
  });

  test("a rotated credential is saved before the refresh counts as done, and used from then on; callers at once spend the old one once", async () => {
    const rotated = (at: string, credential: string) => ({ status: 200, body: { access_token: at, token_type: "Bearer", expires_in: 3600, scope: "fotos", refresh_token: credential } });
    plan(rotated("at-1", "mcpdev_y"), rotated("at-2", "mcpdev_z"));
    const saved: string[] = [];
    const tokens = new AccessTokens(endpoints().token, agent, "mcpdev_x", undefined, {
      save: async (credential) => {
        await new Promise((r) => setTimeout(r, 20));
        saved.push(credential);
      },
    });
    // Three callers at once: one request with the credential, the answer's successor saved once.
    expect(await Promise.all([tokens.get(), tokens.get(), tokens.get()])).toEqual(["at-1", "at-1", "at-1"]);
    expect(saved).toEqual(["mcpdev_y"]);
    tokens.invalidate();
    expect(await tokens.get()).toBe("at-2");
    expect(seen.map((s) => s.form.get("refresh_token"))).toEqual(["mcpdev_x", "mcpdev_y"]);
    expect(saved).toEqual(["mcpdev_y", "mcpdev_z"]);
  });

  test("the agent writes its rotated credential to the file it was loaded from, and reads it back before each refresh", async () => {
    const home = mkdtempSync(join(tmpdir(), "fotos-rotate-"));
    const file = join(home, "credentials.json");
    const creds = { server: base, tokenEndpoint: `${base}/token`, clientId: "fotos-agent", deviceId: "d1", deviceName: "Test PC", credential: "mcpdev_x", pairedAt: new Date().toISOString() };
    saveCredentials(creds, file);
    plan({ status: 200, body: { access_token: "at-r", token_type: "Bearer", expires_in: 3600, scope: "fotos", refresh_token: "mcpdev_next" } });
    const running = new FotosApi(loadCredentials(file)!, file);
    await running.refresh();
    expect(loadCredentials(file)).toEqual({ ...creds, credential: "mcpdev_next" });
    // Another process of this device (`fotos-agent status`) rotates it meanwhile: the running one
    // presents the newest from the file at its next refresh, never the one it held (which would unpair the device).
    plan({ status: 200, body: { access_token: "at-s", token_type: "Bearer", expires_in: 3600, scope: "fotos", refresh_token: "mcpdev_after_status" } });
    await new FotosApi(loadCredentials(file)!, file).refresh();
    plan({ status: 200, body: { access_token: "at-t", token_type: "Bearer", expires_in: 3600, scope: "fotos", refresh_token: "mcpdev_last" } });
    await running.refresh();
    expect(seen.map((s) => s.form.get("refresh_token"))).toEqual(["mcpdev_after_status"]);
    expect(loadCredentials(file)?.credential).toBe("mcpdev_last");
  });

  test("a token with less than a minute left is replaced before use", async () => {
    plan({ status: 200, body: { access_token: "at-new", token_type: "Bearer", expires_in: 3600, scope: "fotos" } });
    const tokens = new AccessTokens(endpoints().token, agent, "mcpdev_x", { accessToken: "at-old", expiresAt: Date.now() + 30_000 });
    expect(await tokens.get()).toBe("at-new");
  });
});

describe("the agent's calls (FotosApi)", () => {
  const api = () =>
    new FotosApi({ server: base, tokenEndpoint: `${base}/token`, clientId: "fotos-agent", deviceId: "d1", deviceName: "Test PC", credential: "mcpdev_x", pairedAt: new Date().toISOString() });
  const token = (t: string) => ({ status: 200, body: { access_token: t, token_type: "Bearer", expires_in: 3600, scope: "fotos" } });

  test("a refused access token is replaced once and the call repeated", async () => {
    plan(token("at-a"), { status: 401, body: { error: "invalid_token" } }, token("at-b"), { status: 200, body: { ok: true } });
    expect(await api().call(AGENT_ROUTES.offline, { sessionId: "session-0001" })).toEqual({ ok: true });
    expect(seen.map((s) => `${s.path} ${s.authorization ?? ""}`.trim())).toEqual(["/token", "/agent/offline Bearer at-a", "/token", "/agent/offline Bearer at-b"]);
  });

  test("a passing failure of the sign-in server is retried; a revoked pairing is not", async () => {
    plan({ status: 503, body: { error: "temporarily_unavailable" } }, token("at-c"), { status: 200, body: { ok: true } });
    expect(await api().callRetrying(AGENT_ROUTES.offline, { sessionId: "session-0001" })).toEqual({ ok: true });

    plan({ status: 400, body: { error: "invalid_grant", error_description: "This device was unpaired: pair it again" } });
    const revoked = await api().callRetrying(AGENT_ROUTES.offline, { sessionId: "session-0001" }).catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(RevokedError);
    expect((revoked as Error).message).toBe("This computer is no longer paired (this device was unpaired): run `fotos-agent pair --server " + base + "` again");
    expect(seen).toHaveLength(1);
  });

  test("a refusal the function meant (4xx) is not retried", async () => {
    plan(token("at-d"), { status: 409, body: { error: "This capture request is already done" } });
    const refused = await api().callRetrying(AGENT_ROUTES.claim, { requestId: "r1", sessionId: "session-0001" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RefusedError);
    expect(refused).toMatchObject({ status: 409, message: "This capture request is already done" });
    expect(seen).toHaveLength(2);
  });
});
