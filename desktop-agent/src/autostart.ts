// Start at login, only when the user asks (`fotos-agent autostart enable`, or `pair --autostart`):
//   Linux    ~/.config/autostart/fotos-agent.desktop (XDG autostart: GNOME, KDE, Xfce, …)
//   Windows  %APPDATA%\Microsoft\Windows\Start Menu\Programs\Startup\fotos-agent.cmd
//   macOS    ~/Library/LaunchAgents/io.fotos.agent.plist (launchd, RunAtLoad)
// Each runs this same program with `run` under the same Node, so it uses the same credential file.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/fotos-agent.js", import.meta.url));

export function autostartPath(): string {
  if (process.platform === "win32") {
    return join(process.env.APPDATA ?? join(homedir(), "AppData", "Roaming"), "Microsoft", "Windows", "Start Menu", "Programs", "Startup", "fotos-agent.cmd");
  }
  if (process.platform === "darwin") return join(homedir(), "Library", "LaunchAgents", "io.fotos.agent.plist");
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "autostart", "fotos-agent.desktop");
}

const quote = (s: string) => `"${s.replace(/(["\\$`])/g, "\\$1")}"`;
const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** The entry's text for this platform (exported for the docs and tests). */
export function autostartEntry(home = process.env.FOTOS_AGENT_HOME): string {
  const node = process.execPath;
  if (process.platform === "win32") {
    return ["@echo off", ...(home ? [`set "FOTOS_AGENT_HOME=${home}"`] : []), `start "" /min "${node}" "${BIN}" run`, ""].join("\r\n");
  }
  if (process.platform === "darwin") {
    return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
  <key>Label</key><string>io.fotos.agent</string>
  <key>ProgramArguments</key><array><string>${xml(node)}</string><string>${xml(BIN)}</string><string>run</string></array>
  ${home ? `<key>EnvironmentVariables</key><dict><key>FOTOS_AGENT_HOME</key><string>${xml(home)}</string></dict>` : ""}
  <key>RunAtLoad</key><true/>
  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>
</dict></plist>
`;
  }
  const env = home ? `env FOTOS_AGENT_HOME=${quote(home)} ` : "";
  return `[Desktop Entry]
Type=Application
Name=Fotos agent
Comment=Captures screenshots when your AI agent asks (take_screenshot)
Exec=${env}${quote(node)} ${quote(BIN)} run
Terminal=false
X-GNOME-Autostart-enabled=true
`;
}

export function enableAutostart(): string {
  const path = autostartPath();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, autostartEntry(), { mode: 0o644 });
  return path;
}

export function disableAutostart(): string {
  const path = autostartPath();
  rmSync(path, { force: true });
  return path;
}

export const autostartEnabled = () => existsSync(autostartPath());
