// The mermaid diagram view (ui://mermaid/diagram) in a real Chromium host built on the extension
// SDK's AppBridge, against the served function; and what clients without the extension get.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/ext-apps/app-bridge";
import { UI_EXTENSION, VIEW_MIME_TYPE } from "../../functions/src/mcp/view.js";
import { VIEW_PROTOCOL_VERSION } from "../../functions/src/mcp/views/app.js";
import { VIEW_CAPABILITIES } from "../../scripts/view-host/host.js";
import { functionUrl } from "../support/emulators.js";
import { connect, type Era } from "../support/mcp.js";
import { showView, startViews, type ViewSession } from "../support/views.js";

const FLOW = "flowchart TD\n  A[Start here] --> B{Decide now}\n  B -->|yes| C[Finish line]\n  B -->|no| A";
const INVALID = "flowchart TD\n  A[Start] --> B\n  B --> [[[broken\n  C --> D";

let session: ViewSession;
beforeAll(async () => {
  session = await startViews(["mermaid"]);
}, 120_000);
afterAll(async () => session?.close());

it("speaks the extension's names and protocol version", () => {
  expect(UI_EXTENSION).toBe(EXTENSION_ID);
  expect(VIEW_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
  expect(VIEW_PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION);
});

describe("what clients see in the lists", () => {
  const withViews = async (era: Era, views: boolean): Promise<Client> => connect("mermaid", { era, ...(views ? { capabilities: VIEW_CAPABILITIES } : {}) });

  for (const era of ["modern", "legacy"] as const) {
    it(`a ${era} client without the extension: no view metadata, no view-only tool, no ui:// resource`, async () => {
      const client = await withViews(era, false);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["render", "svg", "verify"]);
      for (const t of tools) expect(t._meta?.ui).toBeUndefined();
      const { resources } = await client.listResources();
      expect(resources.filter((r) => r.uri.startsWith("ui://"))).toEqual([]);
      await client.close();
    });
  }

  it("a client announcing the extension: render and svg name the view, png is for views only", async () => {
    const client = await withViews("modern", true);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.render?._meta?.ui).toEqual({ resourceUri: "ui://mermaid/diagram" });
    expect(byName.svg?._meta?.ui).toEqual({ resourceUri: "ui://mermaid/diagram" });
    expect(byName.png?._meta?.ui).toEqual({ resourceUri: "ui://mermaid/diagram", visibility: ["app"] });
    expect(byName.verify?._meta?.ui).toBeUndefined();
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(expect.objectContaining({ uri: "ui://mermaid/diagram", mimeType: VIEW_MIME_TYPE }));
    const read = await client.readResource({ uri: "ui://mermaid/diagram" });
    const view = read.contents[0] as { text: string; mimeType: string; _meta?: { ui?: { csp?: unknown } } };
    expect(view.mimeType).toBe(VIEW_MIME_TYPE);
    expect(view._meta?.ui?.csp).toEqual({}); // needs nothing beyond the default policy
    expect(Buffer.byteLength(view.text)).toBeLessThanOrEqual(150 * 1024);
    expect(view.text).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?(https?:)?\/\//i); // nothing loaded from elsewhere
    await client.close();
  });

  it("the tool's result is the same with and without the extension", async () => {
    const plain = await withViews("modern", false);
    const viewing = await withViews("modern", true);
    const [a, b] = await Promise.all([plain.callTool({ name: "render", arguments: { code: FLOW } }), viewing.callTool({ name: "render", arguments: { code: FLOW } })]);
    expect(b.structuredContent).toEqual(a.structuredContent);
    expect(b.content).toEqual(a.content);
    await plain.close();
    await viewing.close();
  });
});

describe("the MCP Inspector CLI (a third-party client)", () => {
  const inspector = (...extra: string[]) =>
    promisify(execFile)("mcp-inspector", ["--cli", functionUrl("mermaid"), "--transport", "http", "--connect-timeout", "120000", "--method", "tools/list", ...extra], { timeout: 240_000 });

  it("by default (it does not announce the extension) lists today's tools, without views", async () => {
    const { stdout } = await inspector();
    const { tools } = JSON.parse(stdout) as { tools: { name: string; _meta?: Record<string, unknown> }[] };
    expect(tools.map((t) => t.name).sort()).toEqual(["render", "svg", "verify"]);
    expect(tools.filter((t) => t._meta)).toEqual([]);
  }, 300_000);

  const apps = async (...extra: string[]) =>
    (await inspector("--advertise-apps", "--app-info", ...extra)).stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

  it("announcing the extension on 2026-07-28 requests, its own app probe finds the diagram view on render and svg", async () => {
    const found = (await apps("--protocol-era", "modern")).filter((a) => a.hasApp === true && a.toolName !== "png");
    expect(found.map((a) => [a.toolName, a.resourceUri])).toEqual([
      ["render", "ui://mermaid/diagram"],
      ["svg", "ui://mermaid/diagram"],
    ]);
    expect(found[0]).toMatchObject({ resourceMimeType: "text/html;profile=mcp-app", csp: {} });
  }, 300_000);

  // Its ad-hoc runs speak the 2025 era, where the capabilities come only with initialize: a
  // stateless server never sees them with the later tools/list (docs/clients.md).
  it("announcing it only at a 2025-era initialize, it is offered no views", async () => {
    expect((await apps("--protocol-era", "legacy")).filter((a) => a.hasApp === true)).toEqual([]);
  }, 300_000);
});

describe("the diagram view in a browser host", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`shows the diagram's labels in an SVG, in the ${theme} theme`, async () => {
      const shown = await showView(session, "mermaid", "render", { code: FLOW }, theme);
      await shown.frame.waitForSelector(".canvas svg", { timeout: 20_000 });
      const labels = await shown.frame.$eval(".canvas svg", (svg) => svg.textContent ?? "");
      for (const label of ["Start here", "Decide now", "Finish line"]) expect(labels).toContain(label);
      // Each label's text fits the box the server measured for it, in the browser's own fonts.
      const overflowing = await shown.frame.$$eval(".canvas svg foreignObject", (fos) =>
        fos
          .map((fo) => ({ text: fo.textContent?.trim() ?? "", needs: (fo.firstElementChild as HTMLElement | null)?.scrollWidth ?? 0, room: Number(fo.getAttribute("width")) }))
          .filter((l) => l.text && l.needs > l.room + 1),
      );
      expect(overflowing).toEqual([]);
      const look = await shown.frame.evaluate(() => ({ theme: document.documentElement.dataset.theme, background: getComputedStyle(document.body).backgroundColor }));
      expect(look.theme).toBe(theme);
      expect(look.background).toBe(theme === "dark" ? "rgb(31, 32, 35)" : "rgb(255, 255, 255)"); // the host's own variable
      await shown.done(`mermaid-diagram-${theme}`);
    }, 90_000);
  }

  it("downloads the SVG it shows and a PNG the server draws (a view-only tool, through the host)", async () => {
    const shown = await showView(session, "mermaid", "render", { code: FLOW }, "light");
    await shown.frame.waitForSelector(".canvas svg", { timeout: 20_000 });
    await shown.frame.click('button[aria-label="Download the SVG"]');
    await shown.frame.click('button[aria-label="Download a PNG drawn by the server"]');
    await shown.page.waitForFunction(() => window.viewHost.state.downloads.length === 2, { timeout: 60_000 });
    const { downloads, toolCalls } = await shown.page.evaluate(() => window.viewHost.state);
    const files = downloads.map((d) => (d.contents[0] as { resource: { uri: string; mimeType: string; text?: string; blob?: string } }).resource);
    const svg = files.find((f) => f.mimeType === "image/svg+xml");
    const png = files.find((f) => f.mimeType === "image/png");
    expect(svg?.text).toMatch(/^<svg[\s\S]*Start here/);
    expect(Buffer.from(png?.blob ?? "", "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(toolCalls).toEqual([{ name: "png", isError: false }]);
    expect(await shown.frame.$eval(".status", (s) => s.textContent)).toBe("PNG saved");
    await shown.done();
  }, 120_000);

  it("draws again in the host's dark theme through the render tool", async () => {
    const shown = await showView(session, "mermaid", "render", { code: FLOW }, "dark");
    await shown.frame.waitForSelector(".canvas svg", { timeout: 20_000 });
    const before = await shown.frame.$eval(".canvas svg", (svg) => svg.outerHTML);
    await shown.frame.click('button[aria-label="Draw again in the host\'s light or dark theme"]');
    await shown.frame.waitForFunction(() => document.querySelector(".status")?.textContent === "Drawn in the host's theme", { timeout: 60_000 });
    const after = await shown.frame.$eval(".canvas svg", (svg) => svg.outerHTML);
    expect(after).not.toBe(before);
    expect(after).toContain("Start here");
    await shown.done();
  }, 120_000);

  it("keeps within the host's containerDimensions: a tall diagram fits the room it is given, and still zooms", async () => {
    const TALL = `flowchart TD\n${Array.from({ length: 18 }, (_, i) => `  N${i}[Step ${i}] --> N${i + 1}[Step ${i + 1}]`).join("\n")}`;
    const layout = async (container?: { maxWidth: number; maxHeight: number }) => {
      const shown = await showView(session, "mermaid", "render", { code: TALL }, "light", container);
      await shown.frame.waitForSelector(".canvas svg", { timeout: 20_000 });
      await shown.frame.waitForFunction(() => (document.querySelector(".stage") as HTMLElement).style.height !== "", { timeout: 20_000 });
      const measured = await shown.frame.evaluate(() => {
        const box = (sel: string) => {
          const { top, bottom, right, height } = document.querySelector(sel)!.getBoundingClientRect();
          return { top, bottom, right, height };
        };
        return { app: box("#app"), stage: box(".stage"), diagram: box(".canvas svg") };
      });
      return { shown, ...measured };
    };
    const roomy = await layout(); // the default room: 760 px wide, up to 2000 px tall
    expect(roomy.app.bottom).toBeGreaterThan(500);
    await roomy.shown.done();

    const small = await layout({ maxWidth: 420, maxHeight: 360 });
    expect(small.app.bottom).toBeLessThanOrEqual(360);
    expect(small.app.right).toBeLessThanOrEqual(420);
    // The whole diagram is in the stage at fit, smaller than in the roomy host.
    expect(small.diagram.top).toBeGreaterThanOrEqual(small.stage.top - 1);
    expect(small.diagram.bottom).toBeLessThanOrEqual(small.stage.bottom + 1);
    expect(small.diagram.right).toBeLessThanOrEqual(small.stage.right + 1);
    expect(small.diagram.height).toBeLessThan(roomy.diagram.height);
    await small.shown.frame.click('button[aria-label="Zoom in"]');
    expect(await small.shown.frame.$eval(".status", (s) => s.textContent)).toBe("125%");
    await small.shown.done("mermaid-diagram-small-room");
  }, 120_000);

  it("an invalid diagram shows the parser's message and marks the line it names", async () => {
    const shown = await showView(session, "mermaid", "render", { code: INVALID }, "light");
    await shown.frame.waitForSelector(".error", { timeout: 20_000 });
    const error = await shown.frame.$eval(".error", (e) => e.textContent ?? "");
    expect(error).toContain("This diagram is not valid Mermaid");
    const line = Number(/line (\d+)/i.exec(error)?.[1]);
    expect(line).toBeGreaterThan(0);
    const marked = await shown.frame.$eval(".source .bad", (li) => li.textContent);
    expect(marked).toBe(INVALID.split("\n")[line - 1]);
    await shown.done("mermaid-diagram-invalid");
  }, 90_000);
});
