// Views in a real Chromium: the view host (scripts/view-host) against the emulator suite, with the
// MCP clients announcing the views extension. Records what the view's frame requests and any CSP
// refusal, and writes a PNG of each view shown to test-results/views/ for a person to look at.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import puppeteer, { type Browser, type ElementHandle, type Frame, type Page } from "puppeteer-core";
import type { Client } from "@modelcontextprotocol/client";
import { startViewHost, VIEW_CAPABILITIES, type OpenedView, type ViewHost } from "../../scripts/view-host/host.js";
import { connect } from "./mcp.js";

export const SHOTS_DIR = join(import.meta.dirname, "../../test-results/views");

export interface ViewSession {
  host: ViewHost;
  browser: Browser;
  close(): Promise<void>;
}

/** A browser and a view host whose clients (one per domain, with `token` if given) announce views. */
export async function startViews(domains: string[], token?: string): Promise<ViewSession> {
  const clients = new Map<string, Promise<Client>>();
  const clientFor = (domain: string) => {
    let client = clients.get(domain);
    if (!client) clients.set(domain, (client = connect(domain, { capabilities: VIEW_CAPABILITIES, ...(token ? { token } : {}) })));
    return client;
  };
  const host = await startViewHost(clientFor, domains);
  const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage", "--font-render-hinting=none"] });
  return {
    host,
    browser,
    async close() {
      await browser.close();
      await host.close();
      for (const c of clients.values()) await (await c).close();
    },
  };
}

export interface ShownView {
  page: Page;
  frame: Frame;
  opened: OpenedView;
  /** URLs the view's frame requested besides its own document (data: URLs are the view's own bytes). */
  extraRequests: string[];
  /** Console lines where the browser refused something under the view's CSP. */
  cspRefusals: string[];
  screenshot(name: string): Promise<void>;
  /** Writes the PNG (when named), checks the frame asked for nothing outside its CSP, closes the page. */
  done(name?: string): Promise<void>;
}

/** `container`: the host context's containerDimensions (default: 760 px wide, at most 2000 px tall). */
export async function showView(
  session: ViewSession,
  domain: string,
  tool: string,
  args: Record<string, unknown>,
  theme: "light" | "dark",
  container?: { width?: number; maxWidth?: number; height?: number; maxHeight?: number },
): Promise<ShownView> {
  const page = await session.browser.newPage();
  await page.setViewport({ width: 800, height: 900 });
  const requests: { url: string; frame: Frame | null }[] = [];
  const cspRefusals: string[] = [];
  page.on("request", (r) => requests.push({ url: r.url(), frame: r.frame() }));
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspRefusals.push(m.text());
  });
  await page.goto(`${session.host.url}/?form=off`);
  const opened = await page.evaluate((d, t, a, th, c) => window.viewHost.showView(d, t, a, th, c as never), domain, tool, args, theme, container);
  if (!opened.viewUrl) throw new Error(`${domain}/${tool} has no view`);
  await page.waitForFunction(() => window.viewHost.state.initialized, { timeout: 30_000 });
  const frame = page.frames().find((f) => f.url().endsWith(opened.viewUrl!));
  if (!frame) throw new Error("the view's frame is not there");
  const shown: ShownView = {
    page,
    frame,
    opened,
    get extraRequests() {
      return requests.filter((r) => r.frame && r.frame !== page.mainFrame() && !r.url.endsWith(opened.viewUrl!) && !r.url.startsWith("data:")).map((r) => r.url);
    },
    cspRefusals,
    async screenshot(name: string) {
      await mkdir(SHOTS_DIR, { recursive: true });
      const iframe = (await page.$("iframe")) as ElementHandle<HTMLIFrameElement>;
      await iframe.screenshot({ path: join(SHOTS_DIR, `${name}.png`) as `${string}.png` });
    },
    async done(name) {
      if (name) await shown.screenshot(name);
      expect(shown.extraRequests).toEqual([]);
      expect(shown.cspRefusals).toEqual([]);
      await page.close();
    },
  };
  return shown;
}
