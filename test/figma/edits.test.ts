// The write set beyond shapes and text, each end to end and checked in the plugin's document model:
// pages, hug/fill sizing, effects, image fills, groups and boolean operations, components from
// layers, variable collections with modes and variables (then bound), paint and text styles (then
// applied), prototype reactions; each write one undo step; what Figma would refuse is refused first
// with a sentence and changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { createUser, type TestUser } from "../support/emulators.js";
import { solidPng } from "./fake-figma.js";
import type { PluginProcess } from "./plugin.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, succeeds, textOf } from "./support.js";

let user: TestUser;
let plugin: PluginProcess;
let agent: Client;

type Node = { id: string; type: string; name: string; children?: Node[]; [k: string]: unknown };
async function doc(): Promise<Node> {
  return (await plugin.dump()) as Node;
}
const find = (root: Node, id: string): Node | undefined => (root.id === id ? root : root.children?.map((c) => find(c, id)).find(Boolean));
async function model(id: string): Promise<Node | undefined> {
  return find(await doc(), id);
}

beforeAll(async () => {
  user = await createUser();
  plugin = await openPlugin(user, { fileName: "Landing page" });
  agent = await figmaClient(user);
});
afterAll(async () => {
  await agent?.close();
  await stopAllPlugins();
});

const ok = (name: string, args: Record<string, unknown> = {}) => succeeds(agent, name, args);
async function refused(name: string, args: Record<string, unknown>): Promise<string> {
  const before = JSON.stringify(await doc());
  const r = await callTool(agent, name, args);
  expect(r.isError, textOf(r)).toBe(true);
  expect(JSON.stringify(await doc())).toBe(before);
  return textOf(r);
}

describe("the write set", () => {
  test("create_page: a new page, shown when asked", async () => {
    const r = await ok("create_page", { name: "Flows", switchTo: true });
    const id = (r.created as { id: string }).id;
    expect(r.currentPage).toBe(id);
    const root = await doc();
    expect(root.children!.map((p) => p.name)).toEqual(["Home", "Components", "Flows"]);
    await ok("create_page", { name: "Archive" });
    expect((await doc()).children!.map((p) => p.name)).toEqual(["Home", "Components", "Flows", "Archive"]);
  });

  test("set_sizing: fill in an auto-layout parent, hug for text; refused where Figma would not allow it", async () => {
    await ok("set_sizing", { nodeId: "3:1", horizontal: "FILL", vertical: "HUG" });
    expect(await model("3:1")).toMatchObject({ layoutSizingHorizontal: "FILL", layoutSizingVertical: "HUG" });
    expect(await refused("set_sizing", { nodeId: "1:4", horizontal: "FILL" })).toBe(
      "Error: FILL (horizontal) needs the layer to sit in an auto-layout frame: node 1:4's parent has no auto-layout (400)",
    );
    expect(await refused("set_sizing", { nodeId: "1:4", vertical: "HUG" })).toBe("Error: HUG (vertical) applies to auto-layout frames and text: call set_layout_mode on node 1:4 first (400)");
  });

  test("set_effects and set_image_fill", async () => {
    await ok("set_effects", { nodeId: "1:4", effects: [{ type: "DROP_SHADOW", radius: 12, y: 6, color: { r: 0, g: 0, b: 0, a: 0.3 } }, { type: "LAYER_BLUR", radius: 2 }] });
    expect((await model("1:4"))!.effects).toEqual([
      { type: "DROP_SHADOW", color: { r: 0, g: 0, b: 0, a: 0.3 }, offset: { x: 0, y: 6 }, radius: 12, spread: 0, visible: true, blendMode: "NORMAL" },
      { type: "LAYER_BLUR", radius: 2, visible: true },
    ]);
    const png = solidPng(4, 4, [10, 200, 30]).toString("base64");
    const r = await ok("set_image_fill", { nodeId: "1:4", imageBase64: png, scaleMode: "FIT" });
    expect((await model("1:4"))!.fills).toEqual([{ type: "IMAGE", imageHash: (r.updated as { imageHash: string }).imageHash, scaleMode: "FIT" }]);
    expect(await refused("set_image_fill", { nodeId: "1:4", imageBase64: Buffer.from("not an image at all").toString("base64") })).toContain("is not a PNG, JPG or GIF image");
  });

  test("group_nodes / ungroup_node and boolean_operation", async () => {
    const g = await ok("group_nodes", { nodeIds: ["1:2", "1:3"], name: "Heading" });
    const groupId = (g.created as { id: string }).id;
    const group = await model(groupId);
    expect(group).toMatchObject({ type: "GROUP", name: "Heading" });
    expect(group!.children!.map((c) => c.id)).toEqual(["1:2", "1:3"]);
    expect((await model("1:1"))!.children!.map((c) => c.id)).toContain(groupId);
    await ok("ungroup_node", { nodeId: groupId });
    expect(await model(groupId)).toBeUndefined();
    expect((await model("1:1"))!.children!.map((c) => c.id).slice(0, 2)).toEqual(["1:2", "1:3"]);

    const a = ((await ok("create_rectangle", { x: 0, y: 0, width: 40, height: 40, parentId: "1:6" })).created as { id: string }).id;
    const b = ((await ok("create_rectangle", { x: 20, y: 20, width: 40, height: 40, parentId: "1:6" })).created as { id: string }).id;
    const u = await ok("boolean_operation", { nodeIds: [a, b], operation: "SUBTRACT", name: "Cut" });
    const shape = await model((u.created as { id: string }).id);
    expect(shape).toMatchObject({ type: "BOOLEAN_OPERATION", name: "Cut", booleanOperation: "SUBTRACT", x: 0, y: 0, width: 60, height: 60 });
    expect(shape!.children!.map((c) => c.id)).toEqual([a, b]);
    expect(await refused("boolean_operation", { nodeIds: [a], operation: "UNION" })).toContain("nodeIds");
  });

  test("create_component_from_node: the layer becomes a component in place", async () => {
    const r = await ok("create_component_from_node", { nodeId: "1:6" });
    const created = r.created as { id: string; key: string; type: string };
    expect(created).toMatchObject({ type: "COMPONENT", name: "Poster" });
    expect(created.key).toMatch(/^[0-9a-f]+$/);
    const home = (await doc()).children![0]!;
    expect(home.children!.map((c) => c.name)).toEqual(["Hero", "List", "Poster"]);
    expect(find(home, created.id)!.type).toBe("COMPONENT");
    expect(await refused("create_component_from_node", { nodeId: created.id })).toBe(`Error: Node ${created.id} is already a component (400)`);
  });

  test("variables: a collection with Light/Dark, a colour variable per mode, bound to a layer", async () => {
    const c = (await ok("create_variable_collection", { name: "Theme", modes: ["Light", "Dark"] })).created as { id: string; modes: { name: string }[] };
    expect(c.modes.map((m) => m.name)).toEqual(["Light", "Dark"]);
    const v = (await ok("create_variable", { collection: "Theme", name: "color/surface", type: "COLOR", values: { Light: { r: 1, g: 1, b: 1 }, Dark: { r: 0.1, g: 0.1, b: 0.1 } } })).created as { id: string; valuesByMode: Record<string, unknown> };
    expect(v.valuesByMode).toEqual({ Light: { r: 1, g: 1, b: 1, a: 1 }, Dark: { r: 0.1, g: 0.1, b: 0.1, a: 1 } });
    await ok("create_variable", { collection: c.id, name: "space/md", type: "FLOAT", values: { Light: 16, Dark: 16 } });
    await ok("bind_variable", { nodeId: "1:1", field: "fills", variable: "color/surface" });
    expect((await model("1:1"))!.boundVariables).toMatchObject({ fills: [{ type: "VARIABLE_ALIAS", id: v.id }] });
    await ok("bind_variable", { nodeId: "1:5", field: "itemSpacing", variable: "space/md" });
    expect(await model("1:5")).toMatchObject({ itemSpacing: 16 });

    expect(await refused("create_variable_collection", { name: "Theme" })).toBe('Error: A variable collection named "Theme" already exists (409)');
    expect(await refused("create_variable", { collection: "Theme", name: "x", type: "COLOR", values: { Sepia: { r: 1, g: 0, b: 0 } } })).toBe(
      'Error: Collection "Theme" has no mode "Sepia": its modes are "Light", "Dark" (400)',
    );
    expect(await refused("create_variable", { collection: "Theme", name: "y", type: "FLOAT", values: { Light: "big" } })).toBe('Error: values for "Light" are not FLOAT values (400)');
    expect(await refused("create_variable", { collection: "Nope", name: "z", type: "BOOLEAN" })).toContain('No variable collection "Nope" in this file');
    expect(await refused("create_variable", { collection: "Theme", name: "color/surface", type: "COLOR" })).toContain("Figma refused the variable");
  });

  test("styles: a paint style and a text style, applied; a missing font refused", async () => {
    const paint = (await ok("create_paint_style", { name: "Brand/Accent", color: { r: 0.9, g: 0.2, b: 0.4 } })).created as { id: string };
    await ok("apply_style", { nodeId: "1:4", styleId: paint.id, target: "fill" });
    expect(await model("1:4")).toMatchObject({ fillStyleId: paint.id, fills: [{ type: "SOLID", color: { r: 0.9, g: 0.2, b: 0.4 } }] });
    const text = (await ok("create_text_style", { name: "Heading/H2", fontWeight: 700, fontSize: 32, lineHeight: 40 })).created as { id: string };
    const styles = await ok("get_styles");
    expect((styles.texts as { id: string; name: string; fontName: unknown; fontSize: number; lineHeight: unknown }[]).find((s) => s.id === text.id)).toEqual(
      expect.objectContaining({ name: "Heading/H2", fontName: { family: "Inter", style: "Bold" }, fontSize: 32, lineHeight: { unit: "PIXELS", value: 40 } }),
    );
    await ok("apply_style", { nodeId: "1:3", styleId: text.id });
    expect(await model("1:3")).toMatchObject({ textStyleId: text.id, fontSize: 32, fontName: { family: "Inter", style: "Bold" } });
    expect(await refused("create_text_style", { name: "Fancy", fontFamily: "Comic Neue", fontSize: 12 })).toBe(
      "Error: The font Comic Neue Regular is not available in Figma here: pick another family or weight (400)",
    );
  });

  test("set_reactions: on click navigate with a dissolve, after a delay back; a text layer as destination refused", async () => {
    await ok("set_reactions", {
      nodeId: "1:4",
      reactions: [
        { trigger: "ON_CLICK", action: "NAVIGATE", destinationId: "1:5", transition: "DISSOLVE", durationMs: 200 },
        { trigger: "AFTER_TIMEOUT", timeoutMs: 1500, action: "BACK" },
      ],
    });
    expect((await model("1:4"))!.reactions).toEqual([
      { trigger: { type: "ON_CLICK" }, actions: [{ type: "NODE", destinationId: "1:5", navigation: "NAVIGATE", transition: { type: "DISSOLVE", easing: { type: "EASE_OUT" }, duration: 0.2 } }] },
      { trigger: { type: "AFTER_TIMEOUT", timeout: 1.5 }, actions: [{ type: "BACK" }] },
    ]);
    expect(await refused("set_reactions", { nodeId: "1:4", reactions: [{ trigger: "ON_CLICK", action: "NAVIGATE", destinationId: "1:2" }] })).toBe(
      "Error: The destination 1:2 is a TEXT: prototypes navigate to frames (400)",
    );
    expect(await refused("set_reactions", { nodeId: "1:4", reactions: [{ trigger: "ON_CLICK", action: "NAVIGATE" }] })).toContain("NAVIGATE, OVERLAY and SWAP need destinationId");
  });

  test("each write is one undo step; reads add none", async () => {
    const before = (await doc()).undoSteps as number;
    await ok("set_effects", { nodeId: "1:4", effects: [] });
    await ok("get_node_info", { nodeId: "1:4" });
    await ok("create_page", { name: "Scratch" });
    expect(((await doc()).undoSteps as number) - before).toBe(2);
  });
});
