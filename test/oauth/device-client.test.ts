// The one device-flow client the desktop agent, `fotos-agent mcp` and the Figma plugin pair with
// (functions/src/contracts/device-flow.ts), against the real oauth function: discovery from a
// function's URL, the code, the person's decision, access tokens from the credential, and the
// sentences each failure ends in.
import { describe, expect, test } from "vitest";
import { AccessTokens, awaitConfirmation, DeviceFlowError, discoverEndpoints, requestDeviceCode } from "../../functions/src/contracts/device-flow.js";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deviceClient, pair } from "../../desktop-agent/src/pairing.js";
import { PLUGIN_CLIENT } from "../../figma-plugin/src/pairing.js";
import { OAUTH_PATHS } from "../../functions/src/contracts/oauth.js";
import { DEVICE_CLIENTS } from "../../functions/src/core/manifest.js";
import { adminDb, createUser, functionUrl } from "../support/emulators.js";
import { confirmUserCode, oauthUrl } from "../support/devices.js";
import { agentProcess, buildAgent, newAgentHome } from "../fotos/agent-harness.js";
import { existsSync } from "node:fs";

// The clients as the plugin and the agent use them, so the sentences tested are the ones people see.
const plugin = PLUGIN_CLIENT;
const agent = deviceClient("fotos-agent");

/** The flow's failure, or a failure of the test when it does not fail. */
async function refusal(promise: Promise<unknown>): Promise<DeviceFlowError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeviceFlowError);
  return err as DeviceFlowError;
}

describe("discovery", () => {
  test("a function's URL leads to the oauth function's pairing endpoints", async () => {
    const endpoints = await discoverEndpoints(functionUrl("figma"));
    expect(endpoints).toEqual({ deviceAuthorization: oauthUrl(OAUTH_PATHS.deviceAuthorization), token: oauthUrl(OAUTH_PATHS.token) });
    // A trailing slash is the same function.
    expect(await discoverEndpoints(`${functionUrl("fotos")}/`)).toEqual(endpoints);
  });

  test("a URL that asks for no sign-in, one nothing answers, and no URL at all each say so; with a fallback sign-in URL it uses that", async () => {
    const wrong = `${functionUrl("mermaid")}/nothing-here`;
    const err = await refusal(discoverEndpoints(wrong, { expected: "fotos" }));
    expect(err.code).toBe("not_a_server");
    expect(err.message).toBe(`${wrong} does not ask for sign-in (it has no /.well-known/oauth-protected-resource): give the URL of your fotos function`);
    const closed = await refusal(discoverEndpoints("http://127.0.0.1:2/fotos"));
    expect(closed.code).toBe("unreachable");
    expect(closed.message).toBe("Could not reach http://127.0.0.1:2/fotos (ECONNREFUSED): check the URL and that the server is running");
    const notUrl = await refusal(discoverEndpoints("fotos.example"));
    expect(notUrl.message).toBe('"fotos.example" is not a URL: give the function\'s URL, e.g. https://us-central1-<project>.cloudfunctions.net/<function>');
    expect(await discoverEndpoints(wrong, { fallbackIssuer: `${oauthUrl()}/` })).toEqual({
      deviceAuthorization: oauthUrl(OAUTH_PATHS.deviceAuthorization),
      token: oauthUrl(OAUTH_PATHS.token),
    });
  });
});

describe("pairing", () => {
  test("confirmed in the browser: the device gets its id, credential, function and a working access token", async () => {
    const user = await createUser();
    const endpoints = await discoverEndpoints(functionUrl("fotos"));
    const code = await requestDeviceCode(endpoints, agent, "Kitchen PC");
    expect(code.userCode).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    expect(code.verificationUriComplete).toBe(`${code.verificationUri}?user_code=${code.userCode}`);
    const confirming = awaitConfirmation(endpoints, agent, code);
    await confirmUserCode(user, code.userCode);
    const paired = await confirming;
    expect(paired).toMatchObject({ deviceId: expect.any(String), refreshToken: expect.stringMatching(/^mcpdev_/), resource: functionUrl("fotos") });
    expect(paired.firebaseCustomToken).toEqual(expect.any(String));
    expect(paired.response.firebase?.projectId).toEqual(expect.any(String));

    // The credential gives fresh tokens; one the server refused is replaced on the next get().
    const tokens = new AccessTokens(endpoints.token, agent, paired.refreshToken, paired);
    expect(await tokens.get()).toBe(paired.accessToken);
    tokens.invalidate();
    const fresh = await tokens.get();
    expect(fresh).not.toBe(paired.accessToken);
    const res = await fetch(functionUrl("fotos", "/agent/heartbeat"), {
      method: "POST",
      headers: { authorization: `Bearer ${fresh}`, "content-type": "application/json" },
      body: JSON.stringify({ sessionId: "session-0001", version: "test", platform: "linux-x64", display: false, monitors: [] }),
    });
    expect(res.status).toBe(200);
  });

  test("declined in the browser: the device says so and holds nothing", async () => {
    const user = await createUser();
    const endpoints = await discoverEndpoints(functionUrl("figma"));
    const code = await requestDeviceCode(endpoints, plugin, "Studio Mac");
    const confirming = awaitConfirmation(endpoints, plugin, code);
    await confirmUserCode(user, code.userCode, "deny");
    const err = await refusal(confirming);
    expect(err.code).toBe("access_denied");
    expect(err.message).toBe("Pairing was declined in the browser");
  });

  test("cancelled while waiting: it stops at once", async () => {
    const endpoints = await discoverEndpoints(functionUrl("figma"));
    const code = await requestDeviceCode(endpoints, plugin, "Studio Mac");
    const stop = new AbortController();
    const waiting = awaitConfirmation(endpoints, plugin, code, { signal: stop.signal });
    stop.abort();
    const err = await refusal(waiting);
    expect(err.code).toBe("cancelled");
    expect(err.message).toBe("Pairing was cancelled");
  });

  test("an unknown client cannot start; the server's sentence is passed on", async () => {
    const endpoints = await discoverEndpoints(functionUrl("figma"));
    const err = await refusal(requestDeviceCode(endpoints, { ...plugin, clientId: "no-such-device" as never }, "x"));
    expect(err.code).toBe("invalid_client");
    expect(err.message).toBe(`Pairing could not start: client_id must be one of ${Object.keys(DEVICE_CLIENTS).join(", ")}`);
  });
});

test("unpaired: the next token request says the device is no longer paired and how to pair again", async () => {
  const user = await createUser();
  const endpoints = await discoverEndpoints(functionUrl("figma"));
  const code = await requestDeviceCode(endpoints, plugin, "Studio Mac");
  const confirming = awaitConfirmation(endpoints, plugin, code);
  await confirmUserCode(user, code.userCode);
  const paired = await confirming;
  const revoked = await fetch(oauthUrl(OAUTH_PATHS.revoke), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: paired.refreshToken, client_id: plugin.clientId }).toString(),
  });
  expect(revoked.status).toBe(200);
  const tokens = new AccessTokens(endpoints.token, plugin, paired.refreshToken);
  const err = await refusal(tokens.get());
  expect(err.revoked).toBe(true);
  expect(err.message).toBe("This plugin is no longer paired (this device was unpaired): click “Pair with my account” to pair it again");
});

test("`fotos-agent pair` keeps the name the server keeps: markup and quotes in a chosen name never reach a sentence", async () => {
  const user = await createUser();
  const path = join(mkdtempSync(join(tmpdir(), "fotos-pair-")), "credentials.json");
  let confirming: Promise<void> | undefined;
  const creds = await pair({
    server: functionUrl("fotos"),
    name: 'Bob\'s "work" <PC>\n',
    path,
    show: (userCode) => void (confirming = confirmUserCode(user, userCode)),
  });
  await confirming;
  const server = (await adminDb().collection("devices").doc(creds.deviceId).get()).get("name");
  expect(creds.deviceName).toBe("Bob's work PC");
  expect(server).toBe(creds.deviceName);
  expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ deviceName: "Bob's work PC", clientId: "fotos-agent", server: functionUrl("fotos") });
});

describe("on the console: fotos-agent pair", () => {
  test("Ctrl-C while it waits for the confirmation cancels: it says so and saves nothing", async () => {
    await buildAgent();
    const home = newAgentHome();
    const pairing = agentProcess(["pair", "--server", functionUrl("fotos")], home);
    await pairing.waitForOutput(/\b[A-Z]{4}-[A-Z]{4}\b/);
    expect(pairing.output()).toContain("To pair this computer's Fotos agent with your account, open");
    pairing.proc.kill("SIGINT");
    expect(await pairing.exited).toBe(130);
    expect(pairing.output()).toContain("fotos-agent: pairing cancelled; nothing was saved");
    expect(existsSync(join(home, "credentials.json"))).toBe(false);
  });

  test("a function that asks for no sign-in is named as the wrong URL, with what to give instead", async () => {
    await buildAgent();
    const pairing = agentProcess(["pair", "--server", functionUrl("mermaid")], newAgentHome());
    expect(await pairing.exited).toBe(1);
    expect(pairing.output().trim()).toBe(`fotos-agent: ${functionUrl("mermaid")} does not ask for sign-in (it has no /.well-known/oauth-protected-resource): give the URL of your fotos function`);
  });
});
