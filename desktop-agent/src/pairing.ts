// Pairing this computer with the person's account: the suite's device-flow client
// (functions/src/contracts/device-flow.ts) with the code shown on the console, and the credential
// saved where `fotos-agent` (or `fotos-agent mcp`) finds it.
import { hostname } from "node:os";
import { awaitConfirmation, discoverEndpoints, requestDeviceCode, type DeviceClient, type DeviceClientId, safeDeviceName } from "../../functions/src/contracts/device-flow.js";
import { saveCredentials, type Credentials } from "./config.js";

export const CLIENT_ID = "fotos-agent" satisfies DeviceClientId;
/** The client `fotos-agent mcp` pairs as (bridged mode). */
export const MCP_CLIENT_ID = "fotos-mcp" satisfies DeviceClientId;

/** The device-flow client for the agent's own grant or the stdio server's, paired with `server` (the fotos function's URL). */
export function deviceClient(clientId: string, server = "<fotos URL>"): DeviceClient {
  if (clientId === MCP_CLIENT_ID) return { clientId, thisDevice: "`fotos-agent mcp` on this computer", pairAgain: `run \`fotos-agent mcp pair --server ${server}\` again` };
  if (clientId === CLIENT_ID) return { clientId, thisDevice: "This computer", pairAgain: `run \`fotos-agent pair --server ${server}\` again` };
  throw new Error(`The saved pairing names an unknown client ${JSON.stringify(clientId)}: run \`fotos-agent pair --server ${server}\` again`);
}

export interface PairOptions {
  server: string;
  name?: string;
  /** fotos-agent (the capturing agent, default) or fotos-mcp (the stdio server's grant). */
  clientId?: string;
  /** Where the credential is saved (default: the agent's credential file). */
  path?: string;
  /** Where the code and URL are shown (the console by default). */
  show?: (userCode: string, url: string, urlComplete: string) => void;
  signal?: AbortSignal;
}

/** Runs the device flow to the end and saves the credential. */
export async function pair(opts: PairOptions): Promise<Credentials> {
  const server = opts.server.replace(/\/+$/, "");
  const client = deviceClient(opts.clientId ?? CLIENT_ID, server);
  const endpoints = await discoverEndpoints(server, { expected: "fotos" });
  // The name as the server keeps it (core/device-name.ts), so the agent's own sentences use the same.
  const deviceName = safeDeviceName(opts.name, defaultDeviceName(client.clientId));
  const code = await requestDeviceCode(endpoints, client, deviceName);
  (opts.show ?? showOnConsole(client.clientId))(code.userCode, code.verificationUri, code.verificationUriComplete);
  const paired = await awaitConfirmation(endpoints, client, code, opts.signal ? { signal: opts.signal } : {});
  const creds: Credentials = {
    server: paired.resource ?? server,
    tokenEndpoint: endpoints.token,
    clientId: client.clientId,
    deviceId: paired.deviceId,
    deviceName,
    credential: paired.refreshToken,
    ...(paired.response.firebase ? { firebase: paired.response.firebase } : {}),
    pairedAt: new Date().toISOString(),
  };
  saveCredentials(creds, opts.path);
  return creds;
}

/** The name /apps shows when none is given: which grant, on which computer. */
export const defaultDeviceName = (clientId: string = CLIENT_ID) =>
  clientId === MCP_CLIENT_ID ? safeDeviceName(`AI apps on ${hostname()}`, "AI apps") : safeDeviceName(`Fotos agent on ${hostname()}`, "Fotos agent");

const showOnConsole =
  (clientId: string) =>
  (userCode: string, url: string, urlComplete: string): void => {
    const what = clientId === MCP_CLIENT_ID ? "let AI apps on this computer use your Fotos (fotos-agent mcp)" : "pair this computer's Fotos agent with your account";
    process.stdout.write(
      `\nTo ${what}, open\n\n    ${urlComplete}\n\n` +
        `and confirm the code\n\n    ${userCode}\n\n(or open ${url} and enter the code). Waiting… (Ctrl-C cancels)\n`,
    );
  };
