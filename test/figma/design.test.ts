// Design context for code, through a real MCP client, the figma function and a paired plugin whose
// document is the pricing card of fixtures.ts (nested auto-layout, text styles, variables in two
// modes with the card in Dark, a Button instance) and a 2,000-layer page:
// - get_design_context carries every layout value, the variable and style names, the instance's
//   component, variant and properties, and assets to export; it pages within its budget;
// - its HTML + CSS renders in Chromium at the frame's size with the Dark mode's colours;
// - get_variable_defs, get_metadata (< 20,000 characters for 2,000 layers), component properties,
//   bind_variable, apply_style and annotations — every write checked in the model afterwards.
import sharp from "sharp";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { createUser } from "../support/emulators.js";
import { CARD, COLORS } from "./fixtures.js";
import type { PluginProcess } from "./plugin.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, structured, succeeds, textOf } from "./support.js";

let plugin: PluginProcess;
let agent: Client;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  const user = await createUser();
  plugin = await openPlugin(user, { fileName: "Pricing", fixtures: ["design", "large"], page: "Design" });
  agent = await figmaClient(user);
});
afterAll(async () => {
  await agent?.close();
  await stopAllPlugins();
});

const ok = async (name: string, args: Record<string, unknown> = {}) => (await succeeds(agent, name, args)) as Json;
const failure = async (name: string, args: Record<string, unknown>) => {
  const r = await callTool(agent, name, args);
  expect(r.isError, `${name} should fail`).toBe(true);
  return textOf(r);
};
const find = (nodes: Json[], id: string): Json | undefined => {
  for (const n of nodes) {
    if (n.id === id) return n;
    const inside = find(n.children ?? [], id);
    if (inside) return inside;
  }
  return undefined;
};
async function modelNode(id: string): Promise<Json> {
  const doc = (await plugin.dump()) as Json;
  const found = find([doc], id);
  if (!found) throw new Error(`no node ${id} in the model`);
  return found;
}

describe("get_design_context", () => {
  let ctx: Json;
  beforeAll(async () => {
    ctx = await ok("get_design_context"); // the selection: the pricing card
  });

  test("the selected frame, with every layout value of the nested auto-layout", () => {
    expect(ctx).toMatchObject({ sessionId: plugin.roomId, format: "json", nodeIds: [CARD.id], nodeCount: 9, truncated: false });
    const card = ctx.nodes[0];
    expect(card).toMatchObject({
      id: CARD.id, name: "Pricing card", type: "FRAME", width: 360, height: 184,
      layout: { mode: "VERTICAL", gap: 16, padding: { top: 24, right: 24, bottom: 24, left: 24 }, primaryAlign: "MIN", counterAlign: "MIN" },
      sizing: { horizontal: "FIXED", vertical: "HUG" },
      radius: 12,
      effects: [{ type: "DROP_SHADOW", color: "#00000040", offset: { x: 0, y: 4 }, radius: 16, spread: 0 }],
    });
    expect(card.children.map((c: Json) => c.name)).toEqual(["Header", "Price", "Buy button"]);
    expect(find(ctx.nodes, "5:2")).toMatchObject({
      layout: { mode: "HORIZONTAL", gap: "AUTO", primaryAlign: "SPACE_BETWEEN", counterAlign: "CENTER" },
      sizing: { horizontal: "FILL", vertical: "HUG" },
    });
    expect(find(ctx.nodes, "5:4")).toMatchObject({ layout: { mode: "HORIZONTAL", padding: { top: 4, right: 8, bottom: 4, left: 8 } }, sizing: { horizontal: "HUG", vertical: "HUG" }, fills: [{ type: "SOLID", color: COLORS.badge }], radius: 12 });
    expect(find(ctx.nodes, "5:6")).toMatchObject({ sizing: { horizontal: "FILL", vertical: "HUG" } });
  });

  test("variable and style names where values are bound, and each variable's value in the card's mode", () => {
    const card = ctx.nodes[0];
    expect(card.fills).toEqual([{ type: "SOLID", color: COLORS.surfaceLight, variable: "color/surface" }]);
    expect(card.variables).toMatchObject({
      itemSpacing: "space/md", paddingTop: "space/lg", paddingRight: "space/lg", paddingBottom: "space/lg", paddingLeft: "space/lg",
      topLeftRadius: "radius/card", fills: ["color/surface"],
    });
    const title = find(ctx.nodes, "5:3")!;
    expect(title.text).toMatchObject({ characters: "Pro plan", style: "Heading/H2", fontFamily: "Inter", fontStyle: "Bold", fontWeight: 700, fontSize: 24, lineHeight: { value: 32, unit: "PIXELS" } });
    expect(title.variables).toEqual({ fills: ["color/text"] });
    const price = find(ctx.nodes, "5:6")!;
    expect(price.text).toMatchObject({ characters: "$29/month", style: "Body/Regular", fontWeight: 400, autoResize: "HEIGHT" });
    expect(price.text.spans.map((s: Json) => [s.characters, s.fontWeight])).toEqual([["$29", 700], ["/month", 400]]);
    // The card sets the Theme collection to Dark: that is the value its layers show.
    expect(ctx.variables["color/surface"]).toMatchObject({ collection: "Theme", type: "COLOR", mode: "Dark", value: COLORS.surfaceDark, cssVar: "--color-surface" });
    expect(ctx.variables["color/text"]).toMatchObject({ mode: "Dark", value: COLORS.textDark });
    expect(ctx.variables["color/brand"]).toMatchObject({ mode: "Dark", value: COLORS.brandDark, cssVar: "--brand-primary" });
    expect(ctx.variables["space/md"]).toMatchObject({ collection: "Spacing", type: "FLOAT", value: 16 });
  });

  test("the instance: its component, variant and property values; the vector inside as an asset", () => {
    const button = ctx.nodes[0].children[2];
    expect(button).toMatchObject({ type: "INSTANCE", name: "Buy button", width: 160, height: 48, sizing: { horizontal: "FIXED", vertical: "FIXED" } });
    expect(button.component).toMatchObject({ id: "6:3", name: "Button", variant: { Size: "Large" } });
    const props = Object.entries(button.component.properties as Json).map(([k, v]) => [k.replace(/#.*/, ""), v]);
    expect(props).toEqual([["Size", { type: "VARIANT", value: "Large" }], ["Label", { type: "TEXT", value: "Buy now" }], ["Show icon", { type: "BOOLEAN", value: true }]]);
    expect(button.fills).toEqual([{ type: "SOLID", color: COLORS.brandLight, variable: "color/brand" }]);
    const icon = button.children.find((c: Json) => c.name === "Icon");
    expect(icon).toMatchObject({ type: "VECTOR", asset: { kind: "vector", export: { nodeId: icon.id, format: "SVG" } } });
    expect(ctx.assets).toEqual([{ nodeId: icon.id, name: "Icon", kind: "vector", format: "SVG" }]);
    expect(button.children.find((c: Json) => c.name === "Label").propertyRefs).toEqual({ characters: expect.stringMatching(/^Label#/) });
  });

  test("a small budget pages the tree between layers; the pages add up to the whole", async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await callTool(agent, "get_design_context", { nodeId: CARD.id, maxChars: 2_000, ...(cursor ? { cursor } : {}) });
      const page = structured(r) as Json;
      const walk = (n: Json) => (ids.push(n.id), (n.children ?? []).forEach(walk));
      page.nodes.forEach(walk);
      if (pages > 0) for (const top of page.nodes) expect(top.parentId, top.id).toMatch(/^\d+:\d+$/);
      // Each page stays within the budget unless a single layer is larger by itself.
      if (page.nodeCount > 1) expect(JSON.stringify(page.nodes).length).toBeLessThanOrEqual(2_000 + 500);
      cursor = page.nextCursor;
      if (cursor) expect(textOf(r)).toContain(`cursor "${cursor}"`);
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBeGreaterThan(2);
    const whole: string[] = [];
    const walk = (n: Json) => (whole.push(n.id), (n.children ?? []).forEach(walk));
    ctx.nodes.forEach(walk);
    expect(ids).toEqual(whole);
  });

  test("html: HTML + CSS that renders in Chromium at the frame's size with its colours (Dark mode)", async () => {
    const r = await ok("get_design_context", { nodeId: CARD.id, format: "html" });
    expect(r.html).toContain(`data-node-id="${CARD.id}"`);
    expect(r.css).toContain("--color-surface: #111827;");
    expect(r.css).toMatch(/gap: var\(--space-md, 16px\);/);
    expect(r.assets).toEqual([{ file: expect.stringMatching(/^assets\/icon-.*\.svg$/), nodeId: expect.any(String), format: "SVG" }]);
    let browser: Browser | undefined;
    try {
      browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
      const page = await browser.newPage();
      await page.setViewport({ width: 600, height: 400 });
      await page.setContent(`<!doctype html><html><head><style>body{margin:0;background:#fff}${r.css}</style></head><body>${r.html}</body></html>`);
      const box = await page.$eval(`[data-node-id="${CARD.id}"]`, (el) => {
        const b = el.getBoundingClientRect();
        return { x: b.x, y: b.y, width: b.width, height: b.height };
      });
      expect(Math.abs(box.width - CARD.width), `width ${box.width}`).toBeLessThanOrEqual(2);
      expect(Math.abs(box.height - CARD.height), `height ${box.height}`).toBeLessThanOrEqual(2);
      const png = await page.screenshot({ type: "png" });
      const { data, info } = await sharp(Buffer.from(png)).raw().toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => {
        const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
        return `#${[data[i]!, data[i + 1]!, data[i + 2]!].map((c) => c.toString(16).padStart(2, "0")).join("")}`.toUpperCase();
      };
      // The card's padding shows its fill; the button's top padding its fill: both in Dark mode.
      expect(pixel(box.x + 10, box.y + 100)).toBe(COLORS.surfaceDark);
      const button = await page.$eval(".buy-button", (el) => {
        const b = el.getBoundingClientRect();
        return { x: b.x, y: b.y, width: b.width, height: b.height };
      });
      expect([Math.round(button.width), Math.round(button.height)]).toEqual([160, 48]);
      expect(Math.abs(button.y - box.y - 112)).toBeLessThanOrEqual(2);
      expect(pixel(button.x + 12, button.y + 5)).toBe(COLORS.brandDark);
      const badge = await page.$eval(".badge", (el) => {
        const b = el.getBoundingClientRect();
        return { x: b.x, y: b.y, height: b.height, right: b.right };
      });
      expect(Math.round(badge.height)).toBe(24);
      expect(Math.abs(badge.right - (box.x + CARD.width - CARD.padding))).toBeLessThanOrEqual(2); // space-between: at the right edge
      expect(pixel(badge.x + 3, badge.y + badge.height / 2)).toBe(COLORS.badge);
    } finally {
      await browser?.close();
    }
  }, 120_000);

  test("tailwind: the same layers with utility classes and the variables", async () => {
    const r = await ok("get_design_context", { nodeId: CARD.id, format: "tailwind" });
    const card = r.html.match(/<div class="([^"]+)" data-node-id="5:1"/)?.[1]?.split(" ");
    expect(card).toEqual(expect.arrayContaining(["relative", "w-[360px]", "flex", "flex-col", "gap-[var(--space-md,16px)]", "p-[var(--space-lg,24px)]", "bg-[var(--color-surface,#ffffff)]", "overflow-hidden"]));
    expect(r.html).toMatch(/<div class="[^"]*\bjustify-between\b[^"]*\bitems-center\b[^"]*" data-node-id="5:2"/);
    expect(r.css).toContain("--color-surface: #111827;");
  });

  test("a page is not a layer to build", async () => {
    const text = await failure("get_design_context", { nodeId: "0:3" });
    expect(text).toBe("Error: Node 0:3 is a page, not a layer (400)");
  });
});

describe("get_variable_defs", () => {
  test("collections, modes and values per mode", async () => {
    const r = await ok("get_variable_defs");
    expect(r.collections).toMatchObject([
      { name: "Theme", modes: ["Light", "Dark"], defaultMode: "Light", variableCount: 4 },
      { name: "Spacing", modes: ["Value"], defaultMode: "Value", variableCount: 3 },
    ]);
    const byName = new Map((r.variables as Json[]).map((v) => [v.name, v]));
    expect(byName.get("color/surface")).toMatchObject({ collection: "Theme", type: "COLOR", valuesByMode: { Light: COLORS.surfaceLight, Dark: COLORS.surfaceDark }, cssVar: "--color-surface" });
    expect(byName.get("color/brand")).toMatchObject({ cssVar: "--brand-primary", codeSyntax: { WEB: "var(--brand-primary)" } });
    expect(byName.get("space/lg")).toMatchObject({ type: "FLOAT", valuesByMode: { Value: 24 } });
    expect(byName.get("copy/cta")).toMatchObject({ type: "STRING", valuesByMode: { Light: "Buy now", Dark: "Buy now" } });
    expect(r.total).toBe(7);
  });

  test("under a node: only the variables used there, where and with the value that applies", async () => {
    const r = await ok("get_variable_defs", { nodeId: CARD.id });
    expect((r.variables as Json[]).map((v) => v.name).sort()).toEqual(["color/brand", "color/surface", "color/text", "radius/card", "space/lg", "space/md"]);
    const used = new Map((r.used as Json[]).map((u) => [u.name, u]));
    expect(used.get("color/surface")).toMatchObject({ fields: ["fills"], nodes: 1, mode: "Dark", value: COLORS.surfaceDark });
    expect(used.get("color/text")).toMatchObject({ fields: ["fills"], nodes: 2, value: COLORS.textDark });
    expect(used.get("space/lg")).toMatchObject({ fields: ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft"], value: 24 });
  });

  test("paged, and a collection filter", async () => {
    const first = await ok("get_variable_defs", { limit: 3 });
    expect(first).toMatchObject({ truncated: true, nextCursor: "3", total: 7 });
    const spacing = await ok("get_variable_defs", { collection: "Spacing" });
    expect((spacing.variables as Json[]).map((v) => v.name)).toEqual(["space/md", "space/lg", "radius/card"]);
    expect(await failure("get_variable_defs", { collection: "Colours" })).toBe('Error: No variable collection named "Colours": this file has "Theme", "Spacing" (404)');
  });
});

describe("get_metadata", () => {
  test("a 2,000-layer page: under 20,000 characters, the top levels complete, the rest counted by layer id", async () => {
    const r = await callTool(agent, "get_metadata", { nodeId: "0:4" });
    expect(r.isError, textOf(r)).toBeFalsy();
    const text = textOf(r);
    const data = structured(r) as Json;
    expect(text.length).toBeLessThan(20_000);
    expect(JSON.stringify(data).length).toBeLessThan(20_000);
    expect(data).toMatchObject({ nodeId: "0:4", name: "Big", type: "PAGE", layerCount: 2001, truncated: true });
    const lines = (data.outline as string).split("\n");
    for (let s = 1; s <= 20; s++) expect(lines.some((l) => l.includes(`FRAME "Section ${s}"`)), `Section ${s}`).toBe(true);
    const cards = lines.filter((l) => /FRAME "Card \d"/.test(l));
    expect(cards).toHaveLength(180);
    // Every card is either opened (its 10 layers follow) or says how many layers it holds.
    let listed = 1 + 20 + 180;
    for (const card of cards) {
      if (card.endsWith("{+10 inside}")) continue;
      const at = lines.indexOf(card);
      expect(lines.slice(at + 1, at + 11).every((l) => l.startsWith("      "))).toBe(true);
      listed += 10;
    }
    expect(data.shownLayers).toBe(listed);
    expect(text).toContain("[truncated]");
    expect(text.split("\n")[0]).toBe(`PAGE "Big" (0:4) in "Pricing" [${plugin.roomId}]: 2001 layers, ${listed} listed`);
    // Asking for one of the counted layers opens it.
    const closed = cards.find((c) => c.endsWith("{+10 inside}"))!;
    const inside = await ok("get_metadata", { nodeId: closed.trim().split(" ")[0] });
    expect(inside).toMatchObject({ layerCount: 11, shownLayers: 11, truncated: false });
  });

  test("the current page by default, with auto-layout marked", async () => {
    const r = await ok("get_metadata");
    expect(r).toMatchObject({ nodeId: "0:3", name: "Design", truncated: false });
    expect(r.outline).toContain('5:1 FRAME "Pricing card" 0,0 360x184 [column]');
    expect(r.outline).toContain('  5:2 FRAME "Header" 24,24 312x32 [row]');
  });
});

describe("components", () => {
  test("get_component_properties: an instance's values and its set's definitions", async () => {
    const r = await ok("get_component_properties", { nodeId: (await ok("get_design_context", { nodeId: CARD.id })).nodes[0].children[2].id });
    expect(r.mainComponent).toMatchObject({ id: "6:3", name: "Size=Large", set: "Button" });
    expect(r.properties).toEqual([
      { name: "Size", displayName: "Size", type: "VARIANT", defaultValue: "Small", value: "Large", variantOptions: ["Small", "Large"] },
      { name: expect.stringMatching(/^Label#/), displayName: "Label", type: "TEXT", defaultValue: "Buy", value: "Buy now" },
      { name: expect.stringMatching(/^Show icon#/), displayName: "Show icon", type: "BOOLEAN", defaultValue: true, value: true },
    ]);
    const set = await ok("get_component_properties", { nodeId: "6:1" });
    expect(set.properties.map((p: Json) => p.displayName)).toEqual(["Size", "Label", "Show icon"]);
  });

  test("set_instance_properties: variant, text and boolean at once, visible in the model", async () => {
    const instanceId = (await ok("get_design_context", { nodeId: CARD.id })).nodes[0].children[2].id as string;
    const r = await ok("set_instance_properties", { nodeId: instanceId, properties: { Size: "Small", Label: "Get started", "Show icon": false } });
    expect(r.updated).toHaveLength(3);
    const model = await modelNode(instanceId);
    expect(model.mainComponentId).toBe("6:2");
    expect(Object.fromEntries(Object.entries(model.componentProperties as Json).map(([k, v]) => [k.replace(/#.*/, ""), (v as Json).value]))).toEqual({ Size: "Small", Label: "Get started", "Show icon": false });
    expect(model.children.find((c: Json) => c.name === "Label").characters).toBe("Get started");
    expect(model.children.find((c: Json) => c.name === "Icon").visible).toBe(false);
    const after = await ok("get_design_context", { nodeId: instanceId });
    expect(after.nodes[0].component).toMatchObject({ variant: { Size: "Small" } });
  });

  test("set_instance_properties: an instance swap by component id, visible in the model", async () => {
    const chip = ((await ok("get_metadata")).outline as string).split("\n").find((l) => l.includes('INSTANCE "Tag chip"'))!.trim().split(" ")[0]!;
    const before = await ok("get_component_properties", { nodeId: chip });
    expect(before.properties).toEqual([{ name: expect.stringMatching(/^Icon#/), displayName: "Icon", type: "INSTANCE_SWAP", defaultValue: "6:10", value: "6:10", valueName: "Icon/Star" }]);
    await ok("set_instance_properties", { nodeId: chip, properties: { Icon: "6:11" } });
    const model = await modelNode(chip);
    expect(model.children.find((c: Json) => c.name === "Leading icon").mainComponentId).toBe("6:11");
    expect((await ok("get_component_properties", { nodeId: chip })).properties[0]).toMatchObject({ value: "6:11", valueName: "Icon/Arrow" });
    expect(await failure("set_instance_properties", { nodeId: chip, properties: { Icon: "5:4" } })).toBe(
      'Error: Nothing was changed: "Icon#' + String(before.properties[0].name).split("#")[1] + '" swaps instances: pass a component\'s node id (get_local_components lists them), not "5:4" (400)',
    );
  });

  test("invalid values: nothing changes, every problem is named", async () => {
    const instanceId = (await ok("get_design_context", { nodeId: CARD.id })).nodes[0].children[2].id as string;
    const text = await failure("set_instance_properties", { nodeId: instanceId, properties: { Size: "Huge", Colour: "red", "Show icon": "yes" } });
    expect(text).toMatch(/^Error: Nothing was changed: "Size" has no variant "Huge" \(options: "Small", "Large"\); no property "Colour" \(this instance's component has "Size", "Label#[^"]+", "Show icon#[^"]+"\); "Show icon#[^"]+" is a BOOLEAN property: pass true or false \(400\)$/);
    expect((await modelNode(instanceId)).mainComponentId).toBe("6:2");
    expect(await failure("set_instance_properties", { nodeId: "5:4", properties: { Size: "Large" } })).toBe(
      "Error: Node 5:4 is a FRAME, not an instance: properties are set on instances (get_component_properties shows a component's definitions) (400)",
    );
  });
});

describe("variables and styles on layers", () => {
  test("bind_variable: a fill, a gap and a text size bound, visible in the model; unbinding removes it", async () => {
    const defs = await ok("get_variable_defs");
    const idOf = (name: string) => (defs.variables as Json[]).find((v) => v.name === name)!.id as string;
    const fill = await ok("bind_variable", { nodeId: "5:4", field: "fills", variable: "color/brand" });
    expect(fill).toMatchObject({ field: "fills", paintIndex: 0, variable: { name: "color/brand", collection: "Theme", type: "COLOR" }, value: COLORS.brandLight });
    const gap = await ok("bind_variable", { nodeId: "5:2", field: "itemSpacing", variable: idOf("space/lg") });
    expect(gap).toMatchObject({ value: 24 });
    await ok("bind_variable", { nodeId: "5:5", field: "fontSize", variable: "space/md" });
    const badge = await modelNode("5:4");
    expect(badge.boundVariables).toEqual({ fills: [{ type: "VARIABLE_ALIAS", id: idOf("color/brand") }] });
    expect(badge.fills[0].color).toEqual({ r: 0x25 / 255, g: 0x63 / 255, b: 0xeb / 255 });
    expect(await modelNode("5:2")).toMatchObject({ itemSpacing: 24, boundVariables: { itemSpacing: { type: "VARIABLE_ALIAS", id: idOf("space/lg") } } });
    expect(await modelNode("5:5")).toMatchObject({ fontSize: 16, boundVariables: { fontSize: [{ type: "VARIABLE_ALIAS", id: idOf("space/md") }] } });
    // The design context now names them.
    expect((await ok("get_design_context", { nodeId: "5:2" })).nodes[0].variables).toEqual({ itemSpacing: "space/lg" });

    await ok("bind_variable", { nodeId: "5:2", field: "itemSpacing", variable: null });
    expect((await modelNode("5:2")).boundVariables).toBeUndefined();
  });

  test("bind_variable refuses what Figma would, saying why", async () => {
    expect(await failure("bind_variable", { nodeId: "5:2", field: "itemSpacing", variable: "color/text" })).toBe('Error: Variable "color/text" is a COLOR; itemSpacing takes a FLOAT variable (400)');
    expect(await failure("bind_variable", { nodeId: "5:2", field: "fontSize", variable: "space/md" })).toBe("Error: fontSize belongs to text layers; node 5:2 is a FRAME (400)");
    expect(await failure("bind_variable", { nodeId: "5:2", field: "fills", variable: "color/nope" })).toBe('Error: No variable named "color/nope" in this file: get_variable_defs lists them (404)');
  });

  test("apply_style: paint, text and effect styles by id, visible in the model", async () => {
    await ok("apply_style", { nodeId: "5:4", styleId: "S:brand," });
    await ok("apply_style", { nodeId: "5:4", styleId: "S:ink,", target: "stroke" });
    const text = await ok("apply_style", { nodeId: "5:6", styleId: "S:h1," });
    expect(text).toMatchObject({ applied: "text", style: { name: "Heading/H1", type: "TEXT" } });
    await ok("apply_style", { nodeId: CARD.id, styleId: "S:shadow," });
    expect(await modelNode("5:4")).toMatchObject({ fillStyleId: "S:brand,", strokeStyleId: "S:ink,", fills: [{ color: { r: 0.2, g: 0.4, b: 0.8 } }] });
    expect(await modelNode("5:6")).toMatchObject({ textStyleId: "S:h1,", fontSize: 48, fontName: { family: "Inter", style: "Bold" } });
    expect(await modelNode(CARD.id)).toMatchObject({ effectStyleId: "S:shadow," });
    expect((await ok("get_design_context", { nodeId: "5:4" })).nodes[0]).toMatchObject({ fillStyle: "Brand/Primary", strokeStyle: "Ink" });
    expect(await failure("apply_style", { nodeId: "5:4", styleId: "S:h1," })).toBe('Error: Text style "Heading/H1" applies to text layers; node 5:4 is a FRAME (400)');
    expect(await failure("apply_style", { nodeId: "5:4", styleId: "S:gone," })).toBe("Error: No style with id S:gone, in this file: get_styles lists the local ones (404)");
  });
});

describe("annotations", () => {
  test("read a designer's note; write, append and clear notes; categories by label", async () => {
    const read = await ok("get_annotations", { nodeId: CARD.id });
    expect(read.nodes).toEqual([
      { nodeId: CARD.id, name: "Pricing card", type: "FRAME", annotations: [{ label: "Card width is fixed at 360 on desktop; full width below 400 px", properties: ["width"], category: "Development" }] },
    ]);
    expect(read.categories.map((c: Json) => c.label)).toEqual(["Development", "Interaction", "Accessibility"]);

    await ok("set_annotations", { nodeId: "5:4", annotations: [{ labelMarkdown: "Shown only on the **recommended** plan", properties: ["fills"], category: "interaction" }] });
    await ok("set_annotations", { nodeId: "5:4", annotations: [{ label: "Contrast checked (AA)", category: "Accessibility" }], mode: "append" });
    expect((await modelNode("5:4")).annotations).toEqual([
      { labelMarkdown: "Shown only on the **recommended** plan", properties: [{ type: "fills" }], categoryId: "AC:2" },
      { label: "Contrast checked (AA)", categoryId: "AC:3" },
    ]);
    const all = await ok("get_annotations", { nodeId: CARD.id, includeChildren: true });
    expect(all.nodes.map((n: Json) => [n.nodeId, n.annotations.length])).toEqual([[CARD.id, 1], ["5:4", 2]]);
    expect((await ok("get_design_context", { nodeId: "5:4" })).nodes[0].annotations).toHaveLength(2);

    expect(await failure("set_annotations", { nodeId: "5:4", annotations: [{ label: "x", category: "Legal" }] })).toBe(
      'Error: annotations[0]: no annotation category "Legal" in this file (it has "Development", "Interaction", "Accessibility") (400)',
    );
    await ok("set_annotations", { nodeId: "5:4", annotations: [] });
    expect((await modelNode("5:4")).annotations).toEqual([]);
  });
});
