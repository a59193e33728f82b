// The figma design view in a real Chromium host (scripts/view-host, the extension SDK's AppBridge)
// against the served function and a running plugin: get_design_context's HTML + CSS previewed
// beside its code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../support/emulators.js";
import { showView, startViews, type ViewSession } from "../support/views.js";
import { CARD } from "../figma/fixtures.js";
import { openPlugin, stopAllPlugins } from "../figma/support.js";

let user: TestUser;
let session: ViewSession;
beforeAll(async () => {
  user = await createUser();
  await openPlugin(user, { fileName: "Pricing", fixtures: ["design"], page: "Design" });
  session = await startViews(["figma"], user.token);
}, 180_000);
afterAll(async () => {
  await session?.close();
  await stopAllPlugins();
});

describe("design preview", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`the card's HTML and CSS drawn beside the code (${theme})`, async () => {
      const shown = await showView(session, "figma", "get_design_context", { nodeId: CARD.id, format: "html" }, theme);
      const result = shown.opened.result.structuredContent as { html: string; css: string };
      await shown.frame.waitForSelector(".preview", { timeout: 20_000 });
      const preview = await shown.frame.$eval(".preview", (stage, id) => {
        const card = stage.firstElementChild?.shadowRoot?.querySelector<HTMLElement>(`[data-node-id="${id}"]`);
        const box = card?.getBoundingClientRect();
        return { found: !!card, width: Math.round(box?.width ?? 0), background: card ? getComputedStyle(card).backgroundColor : "" };
      }, CARD.id);
      expect(preview.found).toBe(true);
      expect(preview.width).toBe(360); // the frame's fixed width, laid out by the design's own CSS
      expect(preview.background).not.toBe("rgba(0, 0, 0, 0)");
      const codes = await shown.frame.$$eval(".codes pre", (pres) => pres.map((p) => p.textContent));
      expect(codes).toEqual([result.html, result.css]);
      await shown.done(`figma-design-${theme}`);
    }, 120_000);
  }
});
