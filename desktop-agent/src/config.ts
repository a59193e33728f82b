// Where the agent keeps what it needs between runs: the device credential from pairing (a file
// only the user can read: 0600 in a 0700 folder) and whether captures are paused.
// Folder: $FOTOS_AGENT_HOME, else %APPDATA%\fotos-agent (Windows), else $XDG_CONFIG_HOME or
// ~/.config, then fotos-agent.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { FirebaseSettings } from "../../functions/src/contracts/oauth.js";

export interface Credentials {
  /** The fotos function's URL (the MCP server the agent captures for). */
  server: string;
  tokenEndpoint: string;
  clientId: string;
  deviceId: string;
  deviceName: string;
  /** The device credential (OAuth refresh token, rotated at each refresh: the newest is kept here); revocable from the account. */
  credential: string;
  firebase?: FirebaseSettings;
  pairedAt: string;
}

export interface LocalState {
  paused: boolean;
}

export function agentHome(): string {
  if (process.env.FOTOS_AGENT_HOME) return process.env.FOTOS_AGENT_HOME;
  if (process.platform === "win32" && process.env.APPDATA) return join(process.env.APPDATA, "fotos-agent");
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "fotos-agent");
}

export const credentialsPath = () => join(agentHome(), "credentials.json");
/** The grant of `fotos-agent mcp` (bridged mode): a pairing of its own, separate from the agent's. */
export const mcpCredentialsPath = () => join(agentHome(), "mcp-credentials.json");
export const statePath = () => join(agentHome(), "state.json");

function writePrivate(path: string, data: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600); // an existing file keeps its old mode with writeFileSync
  renameSync(tmp, path);
}

export function loadCredentials(path = credentialsPath()): Credentials | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, "utf8")) as Credentials;
}

export function saveCredentials(creds: Credentials, path = credentialsPath()): void {
  writePrivate(path, JSON.stringify(creds, null, 2) + "\n");
}

export function loadState(): LocalState {
  try {
    const s = JSON.parse(readFileSync(statePath(), "utf8")) as Partial<LocalState>;
    return { paused: s.paused === true };
  } catch {
    return { paused: false };
  }
}

export function saveState(state: LocalState): void {
  writePrivate(statePath(), JSON.stringify(state) + "\n");
}
