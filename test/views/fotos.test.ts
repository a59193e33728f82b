// The fotos screenshot view in a real Chromium host (scripts/view-host, the extension SDK's
// AppBridge) against the served function: the full-resolution image read through the host as
// screenshots://{id}, with one box per redaction, a hoverable box per OCR word, the annotations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, functionUrl, type TestUser } from "../support/emulators.js";
import { showView, startViews, type ShownView, type ViewSession } from "../support/views.js";
import { PLANTED, englishScreen, ensureTestFonts, piiScreen } from "../fotos/vision-fixtures.js";
import { ensureX11Packages, openWindow, pairedAgent, startXvfb, type AgentProcess } from "../fotos/agent-harness.js";

let alice: TestUser;
let bob: TestUser;
let session: ViewSession;
let strangers: ViewSession;
const ids: Record<string, string> = {};

async function upload(user: TestUser, png: Buffer): Promise<string> {
  const res = await fetch(functionUrl("fotos", "/screenshots"), {
    method: "POST",
    headers: { authorization: `Bearer ${user.token}`, "content-type": "image/png" },
    body: new Uint8Array(png),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { screenshot_id: string }).screenshot_id;
}

beforeAll(async () => {
  ensureTestFonts();
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  ids.pii = await upload(alice, await piiScreen());
  ids.english = await upload(alice, await englishScreen());
  session = await startViews(["fotos"], alice.token);
  strangers = await startViews(["fotos"], bob.token);
}, 600_000);
afterAll(async () => {
  await session?.close();
  await strangers?.close();
});

/** The image the view shows, and the resources it read through the host. */
async function shownImage(shown: ShownView) {
  await shown.frame.waitForSelector(".shot img", { timeout: 60_000 });
  return {
    image: await shown.frame.$eval(".shot img", (img) => ({ width: img.naturalWidth, height: img.naturalHeight, src: img.src.slice(0, 22) })),
    reads: await shown.page.evaluate(() => window.viewHost.state.reads),
  };
}

describe("the screenshot view", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`auto_redact_pii: the redacted copy at full resolution, one box per detection with its type (${theme})`, async () => {
      const shown = await showView(session, "fotos", "auto_redact_pii", { screenshot_id: ids.pii }, theme);
      const result = shown.opened.result.structuredContent as { screenshot_id: string; detections: { type: string }[] };
      const { image, reads } = await shownImage(shown);
      expect(reads).toEqual([`screenshots://${result.screenshot_id}`]); // through the server, no URL
      expect(image.src).toBe("data:image/png;base64,");
      expect(image.width).toBeGreaterThan(1000); // full resolution, not the model's copy
      const boxes = await shown.frame.$$eval("rect.redaction", (rects) => rects.map((r) => r.getAttribute("data-type")));
      expect(result.detections.length).toBe(PLANTED.length);
      expect(boxes).toEqual(result.detections.map((d) => d.type));
      await shown.done(`fotos-redaction-${theme}`);
    }, 300_000);
  }

  it("ocr_screenshot: a box per word read; focusing one says its text", async () => {
    const shown = await showView(session, "fotos", "ocr_screenshot", { screenshot_id: ids.english, language: "eng" }, "light");
    const result = shown.opened.result.structuredContent as { regions: { text: string }[] };
    await shownImage(shown);
    const words = await shown.frame.$$("rect.word");
    expect(words.length).toBe(result.regions.length);
    expect(words.length).toBeGreaterThan(10);
    await words[0]!.evaluate((w) => (w as SVGElement).focus());
    expect(await shown.frame.$eval(".tip", (t) => t.textContent)).toContain(`“${result.regions[0]!.text}”`);
    await shown.done("fotos-ocr-light");
  }, 300_000);

  it("annotate_screenshot: the annotated copy, each annotation marked", async () => {
    const annotations = [
      { type: "rect", x: 40, y: 40, width: 300, height: 80 },
      { type: "text", x: 60, y: 200, text: "Look here", height: 24 },
    ];
    const shown = await showView(session, "fotos", "annotate_screenshot", { screenshot_id: ids.english, annotations }, "dark");
    const result = shown.opened.result.structuredContent as { screenshot_id: string };
    const { reads } = await shownImage(shown);
    expect(reads).toEqual([`screenshots://${result.screenshot_id}`]);
    expect(await shown.frame.$$eval("rect.annotation", (r) => r.map((x) => x.getAttribute("data-type")))).toEqual(["rect", "text"]);
    await shown.done("fotos-annotation-dark");
  }, 300_000);

  it("someone else's screenshot: the view says so and reads nothing", async () => {
    const shown = await showView(strangers, "fotos", "ocr_screenshot", { screenshot_id: ids.pii }, "light");
    await shown.frame.waitForSelector(".error", { timeout: 30_000 });
    expect(await shown.frame.$eval(".error strong", (e) => e.textContent)).toBe("Nothing to show");
    expect(await shown.page.evaluate(() => window.viewHost.state.reads)).toEqual([]);
    await shown.done();
  }, 120_000);
});

// take_screenshot needs a computer to capture: an X display with a window on it, and the desktop
// agent paired through the real device flow, as in test/fotos/capture-e2e.test.ts.
describe("the screenshot view of a capture", () => {
  const cleanups: (() => unknown)[] = [];
  let capturer: ViewSession;
  let agent: AgentProcess | undefined;

  beforeAll(async () => {
    await ensureX11Packages();
    const x = await startXvfb(1920, 1080);
    cleanups.push(() => x.stop());
    const win = await openWindow(x.display, "Fotos View Window - order 1234", "Order 1234\nshipped to the view");
    cleanups.push(() => win.close());
    const paired = await pairedAgent("carol-desktop", x.display, cleanups);
    agent = paired.agent;
    // The pairing signed the person in again: the view host's clients use the token it left.
    capturer = await startViews(["fotos"], paired.user.token);
    cleanups.push(() => capturer.close());
  }, 600_000);
  afterAll(async () => {
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  });

  it("take_screenshot: the whole screen at full resolution, read through the host, though the model got a smaller copy", async () => {
    const shown = await showView(capturer, "fotos", "take_screenshot", { mode: "fullscreen" }, "light");
    const result = shown.opened.result;
    expect(result.isError, `${JSON.stringify(result.content).slice(0, 300)}\nagent:\n${agent?.output()}`).toBeFalsy();
    const { id } = result.structuredContent as { id: string };
    const modelCopy = result.content.find((c) => c.type === "image");
    expect(modelCopy).toBeDefined(); // the model's own (downscaled) copy is in the result, as before
    const { image, reads } = await shownImage(shown);
    expect(reads).toEqual([`screenshots://${id}`]);
    expect(image.src).toBe("data:image/png;base64,");
    expect(image).toMatchObject({ width: 1920, height: 1080 }); // the display's size, not the model's 1568 px
    expect(await shown.frame.$eval(".toolbar strong", (e) => e.textContent)).toBe("1920×1080");
    expect(await shown.frame.$$("rect")).toHaveLength(0); // a plain capture marks nothing
    await shown.done("fotos-capture-light");
  }, 300_000);
});
