// Capturing the screen as PNG. screenshot-desktop grabs each display; the agent composites them
// at their real positions for "fullscreen", picks one for "monitor", and finds windows by title
// for "window" (X11: xdotool/xwininfo + ImageMagick `import -window`; Windows: PowerShell with
// user32 + System.Drawing; macOS: `screencapture -l` with the window id from CoreGraphics).
import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import type { Monitor as ReportedMonitor } from "../../functions/src/contracts/fotos-agent.js";
import { DECODE_LIMIT } from "../../functions/src/domains/fotos/published.js";

const require = createRequire(import.meta.url);

interface Display {
  id: string | number;
  name?: string;
  width?: number;
  height?: number;
  offsetX?: number;
  offsetY?: number;
  left?: number;
  top?: number;
  primary?: boolean;
}
interface ScreenshotDesktop {
  (options?: { screen?: string | number; format?: string }): Promise<Buffer>;
  listDisplays(): Promise<Display[]>;
}
const screenshot = require("screenshot-desktop") as ScreenshotDesktop;

/** A monitor as the agent reports it (contracts/fotos-agent.ts), and how to capture it here. */
export interface Monitor extends ReportedMonitor {
  /** screenshot-desktop's id for it, when screenshot-desktop lists it. */
  screen?: string | number;
}

/** A failure whose message is meant for the user (the tool returns it word for word). */
export class CaptureError extends Error {
  override readonly name = "CaptureError";
}

export const NO_DISPLAY =
  "No display server is available for screenshot capture: the Fotos agent runs without a graphical session (no DISPLAY or WAYLAND_DISPLAY). Start the agent inside your desktop session";

function run(cmd: string, args: string[], opts: { timeoutMs?: number; binary?: boolean } = {}): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { encoding: "buffer", maxBuffer: 512 * 1024 * 1024, timeout: opts.timeoutMs ?? 20_000, windowsHide: true },
      (err, stdout, stderr) => {
        if (err) {
          const e = err as NodeJS.ErrnoException & { stderr?: string };
          e.stderr = stderr?.toString();
          return reject(e);
        }
        resolve({ stdout, stderr: stderr.toString() });
      },
    );
  });
}

const missingTool = (err: unknown) => (err as NodeJS.ErrnoException).code === "ENOENT";

function toolMissing(tool: string, pkg: string): CaptureError {
  return new CaptureError(`Screen capture tool missing: ${tool} is not installed on this computer. Install it (e.g. \`sudo apt install ${pkg}\`) and try again`);
}

/** Whether this process can reach a display (X11/Wayland on Linux; always on Windows/macOS). */
export async function hasDisplay(): Promise<boolean> {
  if (process.platform !== "linux") return true;
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  if (!process.env.DISPLAY) return true; // Wayland without XWayland: screenshot-desktop cannot, but there is a display
  try {
    await run("xrandr", ["--current"], { timeoutMs: 5000 });
    return true;
  } catch (err) {
    return missingTool(err); // xrandr absent: the display may well be there; capture will say what is missing
  }
}

// RandR 1.5 monitors ("xrandr --listmonitors"): every active monitor, including outputs xrandr's
// --current listing marks as disconnected (virtual or headless outputs).
async function x11Monitors(): Promise<Monitor[]> {
  const { stdout } = await run("xrandr", ["--listmonitors"], { timeoutMs: 5000 });
  const monitors: Monitor[] = [];
  for (const line of stdout.toString().split("\n")) {
    const m = /^\s*(\d+):\s+\+?(\*?)(\S+)\s+(\d+)\/\d+x(\d+)\/\d+\+(-?\d+)\+(-?\d+)/.exec(line);
    if (m) monitors.push({ index: monitors.length, primary: m[2] === "*", name: m[3]!, width: +m[4]!, height: +m[5]!, x: +m[6]!, y: +m[7]! });
  }
  return monitors;
}

/** The monitors, in a stable order (index is what monitor_index means). */
export async function listMonitors(): Promise<Monitor[]> {
  const displays = await screenshot.listDisplays().catch(() => [] as Display[]);
  const fromLib: Monitor[] = displays.map((d, index) => ({
    index,
    width: d.width ?? 0,
    height: d.height ?? 0,
    x: d.offsetX ?? d.left ?? 0,
    y: d.offsetY ?? d.top ?? 0,
    ...(d.primary !== undefined ? { primary: d.primary } : {}),
    ...(d.name ? { name: d.name } : {}),
    screen: d.id,
  }));
  if (process.platform !== "linux") return fromLib;
  const randr = await x11Monitors().catch(() => [] as Monitor[]);
  if (!randr.length) return fromLib;
  return randr.map((m) => {
    const lib = fromLib.find((d) => d.name === m.name && d.width === m.width && d.height === m.height && d.x === m.x && d.y === m.y);
    return lib ? { ...m, screen: lib.screen! } : m;
  });
}

async function grabMonitor(m: Monitor): Promise<Buffer> {
  if (m.screen !== undefined) return screenshot({ screen: m.screen, format: "png" });
  // A RandR monitor screenshot-desktop does not list: the same ImageMagick command it runs.
  const { stdout } = await run("import", ["-silent", "-window", "root", "-crop", `${m.width}x${m.height}+${m.x}+${m.y}`, "+repage", "png:-"]);
  return stdout;
}

async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CaptureError) throw err;
    if (missingTool(err)) {
      const cmd = String((err as { path?: string }).path ?? "import");
      throw toolMissing(cmd, cmd === "xrandr" ? "x11-xserver-utils" : cmd === "xdotool" ? "xdotool" : cmd === "xwininfo" ? "x11-utils" : "imagemagick");
    }
    const detail = String((err as { stderr?: string }).stderr ?? (err as Error).message ?? err).split("\n")[0]!.slice(0, 200);
    throw new CaptureError(`The screen could not be captured: ${detail}`);
  }
}

/** All monitors composited into one image at their real positions (`known`: a fresh monitor list, saves listing them again). */
export async function captureFullscreen(known?: Monitor[]): Promise<Buffer> {
  return guard(async () => {
    const monitors = known?.length ? known : await listMonitors();
    if (!monitors.length) return screenshot({ format: "png" });
    if (monitors.length === 1) return toPng(await grabMonitor(monitors[0]!));
    const shots = await Promise.all(monitors.map(grabMonitor));
    const left = Math.min(...monitors.map((m) => m.x));
    const top = Math.min(...monitors.map((m) => m.y));
    const width = Math.max(...monitors.map((m) => m.x + m.width)) - left;
    const height = Math.max(...monitors.map((m) => m.y + m.height)) - top;
    return sharp({ create: { width, height, channels: 3, background: "#000000" } })
      .composite(shots.map((input, i) => ({ input, left: monitors[i]!.x - left, top: monitors[i]!.y - top })))
      .png()
      .toBuffer();
  });
}

export async function captureMonitor(index: number, known?: Monitor[]): Promise<Buffer> {
  return guard(async () => {
    const monitors = known?.[index] ? known : await listMonitors();
    const m = monitors[index];
    if (!m) throw new CaptureError(`No monitor with index ${index}: this computer has ${monitors.length} (0–${monitors.length - 1})`);
    return toPng(await grabMonitor(m));
  });
}

const toPng = async (image: Buffer) => (image.subarray(1, 4).toString("latin1") === "PNG" ? image : sharp(image, DECODE_LIMIT).png().toBuffer());

export const noWindow = (title: string) =>
  new CaptureError(`No window found whose title contains "${title}" (case-insensitive): check the title or capture the fullscreen instead`);

/** The first window whose title contains `title`, case-insensitive. */
export async function captureWindow(title: string): Promise<Buffer> {
  return guard(async () => {
    if (process.platform === "linux") return captureX11Window(title);
    if (process.platform === "win32") return captureWindowsWindow(title);
    if (process.platform === "darwin") return captureMacWindow(title);
    throw new CaptureError(`Window capture is not supported on ${process.platform}`);
  });
}

// X11: the window tree with titles from xwininfo (one call), the viewable ones from xdotool;
// the first (in stacking order, bottom to top) whose title matches is captured with `import`.
async function captureX11Window(title: string): Promise<Buffer> {
  const needle = title.toLowerCase();
  const { stdout: tree } = await run("xwininfo", ["-root", "-tree"], { timeoutMs: 10_000 });
  const candidates: string[] = [];
  for (const line of tree.toString().split("\n")) {
    const m = /^\s*(0x[0-9a-f]+) "(.*)":/i.exec(line);
    if (m && m[2]!.toLowerCase().includes(needle)) candidates.push(m[1]!);
  }
  if (!candidates.length) throw noWindow(title);
  const visible = new Set(
    (await run("xdotool", ["search", "--onlyvisible", "--name", "."]).catch((err) => (missingTool(err) ? Promise.reject(err) : { stdout: Buffer.from("") })))
      .stdout.toString()
      .split("\n")
      .filter(Boolean)
      .map((id) => Number(id)),
  );
  const id = candidates.find((c) => visible.has(Number.parseInt(c, 16)));
  if (!id) throw noWindow(title);
  const { stdout } = await run("import", ["-silent", "-window", id, "png:-"]);
  return stdout;
}

// Windows: PowerShell finds the first top-level window with a matching title (EnumWindows),
// reads its rectangle and copies that screen area with System.Drawing.
async function captureWindowsWindow(title: string): Promise<Buffer> {
  const out = join(tmpdir(), `fotos-window-${process.pid}-${Date.now()}.png`);
  const script = `
Add-Type -AssemblyName System.Drawing
Add-Type @"
using System; using System.Text; using System.Runtime.InteropServices;
public class FotosWin {
  public delegate bool EnumProc(IntPtr h, IntPtr l);
  [DllImport("user32.dll")] public static extern bool EnumWindows(EnumProc f, IntPtr l);
  [DllImport("user32.dll")] public static extern bool IsWindowVisible(IntPtr h);
  [DllImport("user32.dll", CharSet=CharSet.Unicode)] public static extern int GetWindowText(IntPtr h, StringBuilder s, int n);
  [StructLayout(LayoutKind.Sequential)] public struct RECT { public int L, T, R, B; }
  [DllImport("user32.dll")] public static extern bool GetWindowRect(IntPtr h, out RECT r);
  [DllImport("user32.dll")] public static extern bool SetProcessDPIAware();
}
"@
[FotosWin]::SetProcessDPIAware() | Out-Null
$needle = $env:FOTOS_WINDOW_TITLE.ToLowerInvariant()
$found = [IntPtr]::Zero
[FotosWin]::EnumWindows({ param($h, $l)
  if ([FotosWin]::IsWindowVisible($h)) {
    $sb = New-Object System.Text.StringBuilder 512
    [FotosWin]::GetWindowText($h, $sb, 512) | Out-Null
    if ($sb.ToString().ToLowerInvariant().Contains($needle)) { $script:found = $h; return $false }
  }
  return $true }, [IntPtr]::Zero) | Out-Null
if ($found -eq [IntPtr]::Zero) { exit 3 }
$r = New-Object FotosWin+RECT
[FotosWin]::GetWindowRect($found, [ref]$r) | Out-Null
$bmp = New-Object System.Drawing.Bitmap ($r.R - $r.L), ($r.B - $r.T)
$g = [System.Drawing.Graphics]::FromImage($bmp)
$g.CopyFromScreen($r.L, $r.T, 0, 0, $bmp.Size)
$bmp.Save($env:FOTOS_WINDOW_OUT, [System.Drawing.Imaging.ImageFormat]::Png)
`;
  process.env.FOTOS_WINDOW_TITLE = title;
  process.env.FOTOS_WINDOW_OUT = out;
  try {
    await run("powershell.exe", ["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", script], { timeoutMs: 30_000 });
    return await readFile(out);
  } catch (err) {
    if ((err as { code?: number }).code === 3) throw noWindow(title);
    throw err;
  } finally {
    await rm(out, { force: true });
  }
}

// macOS: the window list from CoreGraphics (JXA), then `screencapture -l <id>`. Needs the
// Screen Recording permission for the terminal or app that runs the agent.
async function captureMacWindow(title: string): Promise<Buffer> {
  const jxa = `ObjC.import('CoreGraphics');
const list = ObjC.deepUnwrap($.CGWindowListCopyWindowInfo($.kCGWindowListOptionOnScreenOnly | $.kCGWindowListExcludeDesktopElements, $.kCGNullWindowID));
const needle = ${JSON.stringify(title.toLowerCase())};
const w = list.find((w) => w.kCGWindowLayer === 0 && String(w.kCGWindowName || '').toLowerCase().includes(needle));
w ? String(w.kCGWindowNumber) : '';`;
  const { stdout } = await run("osascript", ["-l", "JavaScript", "-e", jxa], { timeoutMs: 15_000 });
  const id = stdout.toString().trim();
  if (!id) throw noWindow(title);
  const out = join(tmpdir(), `fotos-window-${process.pid}-${Date.now()}.png`);
  try {
    await run("screencapture", ["-x", "-o", "-l", id, out]);
    return await readFile(out);
  } finally {
    await rm(out, { force: true });
  }
}
