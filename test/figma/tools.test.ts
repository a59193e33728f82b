// Every figma tool end to end: a real MCP client → the figma function → Firestore relay → a paired
// plugin process running the plugin's own command handlers against a model of a Figma file → back.
// Writes are checked in the plugin's document model itself, not only in the tool's answer.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { createUser, type TestUser } from "../support/emulators.js";
import type { PluginProcess } from "./plugin.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, structured, succeeds, textOf } from "./support.js";

let user: TestUser;
let plugin: PluginProcess;
let agent: Client;

type Node = { id: string; name: string; type: string; children?: Node[]; [k: string]: unknown };
async function modelNode(id: string): Promise<Node | undefined> {
  const find = (n: Node): Node | undefined => (n.id === id ? n : n.children?.map(find).find(Boolean));
  return find((await plugin.dump()) as Node);
}

beforeAll(async () => {
  user = await createUser();
  plugin = await openPlugin(user, { fileName: "Landing page", figmaUserId: "1001", figmaUserName: "Ada" });
  agent = await figmaClient(user);
});
afterAll(async () => {
  await agent?.close();
  await stopAllPlugins();
});

const ok = (name: string, args: Record<string, unknown> = {}) => succeeds(agent, name, args);

describe("tools/list", () => {
  test("lists every tool in snake_case with a session argument and honest annotations", async () => {
    const { tools } = await agent.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const expected = [
      "list_sessions", "get_document_info", "get_selection", "get_node_info", "get_nodes_info", "get_styles", "get_local_components",
      "scan_text_nodes", "scan_nodes_by_types", "export_node_as_image", "create_frame", "create_rectangle", "create_text",
      "set_text_content", "set_multiple_text_contents", "set_fill_color", "set_stroke_color", "set_corner_radius", "set_layout_mode",
      "set_padding", "set_axis_align", "set_item_spacing", "move_node", "resize_node", "clone_node", "delete_node",
      "delete_multiple_nodes", "create_component_instance", "get_design_context", "get_variable_defs", "get_metadata",
      "get_component_properties", "set_instance_properties", "bind_variable", "apply_style", "get_annotations", "set_annotations",
      "get_board", "create_sticky", "create_shape_with_text", "create_connector", "create_section", "create_diagram",
      "create_page", "set_sizing", "set_effects", "set_image_fill", "group_nodes", "ungroup_node", "boolean_operation",
      "create_component_from_node", "create_variable_collection", "create_variable", "create_paint_style", "create_text_style", "set_reactions",
    ];
    expect([...byName.keys()].sort()).toEqual([...expected].sort());
    for (const t of tools.filter((t) => t.name !== "list_sessions")) {
      expect(Object.keys(t.inputSchema.properties ?? {}), t.name).toEqual(expect.arrayContaining(["sessionId", "roomId"]));
      // Structured answers are declared (the client checks every result against them).
      expect(t.outputSchema?.required, t.name).toEqual(["sessionId", "fileName"]);
    }
    expect(Object.keys(byName.get("list_sessions")!.outputSchema?.properties ?? {})).toEqual(["count", "userIds", "sessions"]);
    expect(byName.get("get_document_info")!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get("create_frame")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    for (const name of ["get_design_context", "get_variable_defs", "get_metadata", "get_component_properties", "get_annotations"]) {
      expect(byName.get(name)!.annotations, name).toMatchObject({ readOnlyHint: true });
    }
    for (const name of ["delete_node", "delete_multiple_nodes", "set_text_content", "set_fill_color", "move_node", "set_instance_properties", "bind_variable", "apply_style", "set_annotations"]) {
      expect(byName.get(name)!.annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
  });
});

describe("reading", () => {
  test("get_document_info: the file, its pages and the current page's layers", async () => {
    const doc = await ok("get_document_info");
    expect(doc).toMatchObject({ sessionId: plugin.roomId, fileName: "Landing page", name: "Landing page", truncated: false });
    expect(doc.pages).toEqual([{ id: "0:1", name: "Home" }, { id: "0:2", name: "Components" }]);
    const page = doc.currentPage as Node;
    expect(page.children!.map((c) => c.name)).toEqual(["Hero", "List", "Poster"]);
  });

  test("get_document_info on a large page is cut with a marker and says where to look", async () => {
    const r = await callTool(agent, "get_document_info", { maxNodes: 20 });
    const doc = structured(r);
    expect(doc.truncated).toBe(true);
    expect(doc.nodeCount).toBe(20);
    const list = (doc.currentPage as Node).children!.find((c) => c.name === "List")!;
    expect(list).toMatchObject({ childrenTruncated: true, childCount: 250 });
    expect(textOf(r)).toContain("[truncated]");
    expect(textOf(r)).toContain("get_node_info");
  });

  test("get_selection", async () => {
    expect(await ok("get_selection")).toMatchObject({ page: { id: "0:1", name: "Home" }, count: 1, selection: [{ id: "1:2", name: "Title", type: "TEXT" }] });
  });

  test("get_node_info: detail and children", async () => {
    const { node } = (await ok("get_node_info", { nodeId: "1:1" })) as { node: Node };
    expect(node).toMatchObject({ id: "1:1", name: "Hero", type: "FRAME", width: 1440, height: 900, fills: [{ type: "SOLID", color: { r: 1, g: 1, b: 1, a: 1 } }] });
    expect(node.children!.map((c) => c.name)).toEqual(["Title", "Subtitle", "Card", "Button"]);
    const instance = (await ok("get_node_info", { nodeId: node.children![3]!.id, depth: 0 })) as { node: Node };
    expect(instance.node.mainComponent).toMatchObject({ id: "2:1", name: "Button" });
  });

  test("get_nodes_info: several, in order, with the missing ones named", async () => {
    const r = await ok("get_nodes_info", { nodeIds: ["1:3", "1:2", "99:99"] });
    expect((r.nodes as Node[]).map((n) => [n.id, n.characters])).toEqual([["1:3", "Design at the speed of thought"], ["1:2", "Welcome"]]);
    expect(r.notFound).toEqual(["99:99"]);
  });

  test("get_styles", async () => {
    const styles = await ok("get_styles");
    expect((styles.colors as Node[]).map((s) => s.name)).toEqual(["Brand/Primary", "Ink"]);
    expect(styles.texts).toMatchObject([{ name: "Heading/H1", fontSize: 48 }]);
    expect(styles.effects).toMatchObject([{ name: "Shadow/Card" }]);
    expect(styles.grids).toMatchObject([{ name: "Grid/12" }]);
  });

  test("get_local_components, paged", async () => {
    const first = await ok("get_local_components", { limit: 1 });
    expect(first).toMatchObject({ components: [{ id: "2:1", name: "Button", key: "b".repeat(40), page: "Components" }], truncated: true, nextCursor: "1", total: 2 });
    const second = await ok("get_local_components", { limit: 1, cursor: first.nextCursor });
    expect(second).toMatchObject({ components: [{ id: "2:3", name: "Badge" }], truncated: false });
  });

  test("scan_text_nodes pages through 250 text layers with a marker and a cursor", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await callTool(agent, "scan_text_nodes", { nodeId: "1:5", limit: 100, ...(cursor ? { cursor } : {}) });
      const page = structured(r);
      seen.push(...(page.textNodes as Node[]).map((n) => String(n.characters)));
      cursor = page.nextCursor as string | undefined;
      if (cursor) expect(textOf(r)).toContain(`[truncated] More items exist: call again with the same arguments and cursor "${cursor}"`);
      else expect(textOf(r)).not.toContain("[truncated]");
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => `Row ${i + 1}`));
  });

  test("scan_nodes_by_types", async () => {
    const r = await ok("scan_nodes_by_types", { nodeId: "0:1", types: ["INSTANCE", "RECTANGLE"] });
    expect((r.nodes as Node[]).map((n) => [n.type, n.name])).toEqual([["RECTANGLE", "Card"], ["INSTANCE", "Button"]]);
  });

  test("export_node_as_image: a PNG the model can see, downscaled when Figma renders it larger", async () => {
    const small = await callTool(agent, "export_node_as_image", { nodeId: "1:4" });
    expect(small.isError, textOf(small)).toBeFalsy();
    expect(structured(small)).toMatchObject({ format: "PNG", width: 320, height: 200, downscaled: false });
    expect(small.content.find((c) => c.type === "image")).toMatchObject({ type: "image", mimeType: "image/png" });

    const poster = await callTool(agent, "export_node_as_image", { nodeId: "1:6" });
    expect(poster.isError, textOf(poster)).toBeFalsy();
    expect(structured(poster)).toMatchObject({ downscaled: true, originalWidth: 3000, originalHeight: 2000, width: 1568, height: 1045 });
    const image = poster.content.find((c) => c.type === "image") as { data: string };
    const png = Buffer.from(image.data, "base64");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1568, 1045]);
  });

  test("export_node_as_image as SVG text", async () => {
    const r = await callTool(agent, "export_node_as_image", { nodeId: "1:4", format: "SVG" });
    expect(structured(r)).toMatchObject({ format: "SVG", mimeType: "image/svg+xml" });
    expect(r.content.map((c) => c.type)).toEqual(["text", "text"]);
    expect((r.content[1] as { text: string }).text).toMatch(/^<svg[^>]+width="320"[^>]+><rect[^>]+fill="#3366cc"\/><\/svg>$/);
  });
});

describe("writing", () => {
  test("create_frame with fill and auto-layout, inside a parent", async () => {
    const { created } = (await ok("create_frame", {
      x: 10, y: 20, width: 300, height: 200, name: "Panel", parentId: "1:1",
      fillColor: { r: 1, g: 0, b: 0 }, layoutMode: "VERTICAL", itemSpacing: 8, padding: 16,
    })) as { created: Node };
    expect(await modelNode(created.id)).toMatchObject({
      type: "FRAME", name: "Panel", x: 10, y: 20, width: 300, height: 200, layoutMode: "VERTICAL", itemSpacing: 8, paddingTop: 16, paddingLeft: 16,
      fills: [{ type: "SOLID", color: { r: 1, g: 0, b: 0 }, opacity: 1 }],
    });
    const hero = await modelNode("1:1");
    expect(hero!.children!.map((c) => c.id)).toContain(created.id);
  });

  test("create_rectangle and create_text", async () => {
    const rect = (await ok("create_rectangle", { x: 5, y: 6, width: 70, height: 80, cornerRadius: 12, fillColor: { r: 0, g: 0, b: 1, a: 0.5 } })) as { created: Node };
    expect(await modelNode(rect.created.id)).toMatchObject({ type: "RECTANGLE", width: 70, height: 80, topLeftRadius: 12, fills: [{ color: { r: 0, g: 0, b: 1 }, opacity: 0.5 }] });
    const text = (await ok("create_text", { x: 1, y: 2, text: "Hello Figma", fontSize: 32, fontWeight: 700 })) as { created: Node };
    expect(await modelNode(text.created.id)).toMatchObject({ type: "TEXT", characters: "Hello Figma", fontSize: 32, fontName: { family: "Inter", style: "Bold" } });
  });

  test("set_text_content and set_multiple_text_contents (each item reported)", async () => {
    await ok("set_text_content", { nodeId: "1:2", text: "Hello again" });
    expect((await modelNode("1:2"))!.characters).toBe("Hello again");
    const r = await ok("set_multiple_text_contents", { nodeId: "1:5", text: [{ nodeId: "3:1", text: "First" }, { nodeId: "1:4", text: "not text" }, { nodeId: "3:2", text: "Second" }] });
    expect(r).toMatchObject({ succeeded: 2, failed: 1, results: [{ nodeId: "3:1", ok: true }, { nodeId: "1:4", ok: false, error: "Node 1:4 is a RECTANGLE, not a text layer" }, { nodeId: "3:2", ok: true }] });
    expect([(await modelNode("3:1"))!.characters, (await modelNode("3:2"))!.characters]).toEqual(["First", "Second"]);
  });

  test("set_fill_color, set_stroke_color, set_corner_radius", async () => {
    await ok("set_fill_color", { nodeId: "1:4", r: 0.1, g: 0.2, b: 0.3, a: 0.4 });
    await ok("set_stroke_color", { nodeId: "1:4", r: 0, g: 0, b: 0, weight: 3 });
    await ok("set_corner_radius", { nodeId: "1:4", radius: 8, corners: [true, false, true, false] });
    expect(await modelNode("1:4")).toMatchObject({
      fills: [{ type: "SOLID", color: { r: 0.1, g: 0.2, b: 0.3 }, opacity: 0.4 }],
      strokes: [{ type: "SOLID", color: { r: 0, g: 0, b: 0 }, opacity: 1 }],
      strokeWeight: 3,
      topLeftRadius: 8, topRightRadius: 0, bottomRightRadius: 8, bottomLeftRadius: 0,
    });
  });

  test("auto-layout: set_layout_mode, set_padding, set_axis_align, set_item_spacing", async () => {
    const padFirst = await callTool(agent, "set_padding", { nodeId: "1:1", paddingTop: 4 });
    expect(textOf(padFirst)).toBe("Error: Frame 1:1 has no auto-layout: call set_layout_mode first (400)");
    await ok("set_layout_mode", { nodeId: "1:1", layoutMode: "HORIZONTAL", layoutWrap: "WRAP" });
    await ok("set_padding", { nodeId: "1:1", paddingTop: 24, paddingLeft: 32 });
    await ok("set_axis_align", { nodeId: "1:1", primaryAxisAlignItems: "SPACE_BETWEEN", counterAxisAlignItems: "CENTER" });
    await ok("set_item_spacing", { nodeId: "1:1", itemSpacing: 12, counterAxisSpacing: 6 });
    expect(await modelNode("1:1")).toMatchObject({
      layoutMode: "HORIZONTAL", layoutWrap: "WRAP", paddingTop: 24, paddingLeft: 32, paddingRight: 0,
      primaryAxisAlignItems: "SPACE_BETWEEN", counterAxisAlignItems: "CENTER", itemSpacing: 12, counterAxisSpacing: 6,
    });
  });

  test("move_node, resize_node, clone_node", async () => {
    await ok("move_node", { nodeId: "1:4", x: 400, y: 500 });
    await ok("resize_node", { nodeId: "1:4", width: 111, height: 222 });
    expect(await modelNode("1:4")).toMatchObject({ x: 400, y: 500, width: 111, height: 222 });
    const { created } = (await ok("clone_node", { nodeId: "1:4", x: 900 })) as { created: Node };
    expect(created.id).not.toBe("1:4");
    expect(await modelNode(created.id)).toMatchObject({ type: "RECTANGLE", name: "Card", x: 900, y: 500, width: 111, height: 222 });
  });

  test("create_component_instance by local id and by library key", async () => {
    const byId = (await ok("create_component_instance", { componentId: "2:1", x: 50, y: 60, parentId: "1:1" })) as { created: Node };
    expect(await modelNode(byId.created.id)).toMatchObject({ type: "INSTANCE", name: "Button", x: 50, y: 60, mainComponentId: "2:1" });
    const byKey = (await ok("create_component_instance", { componentKey: "c".repeat(40), x: 0, y: 0 })) as { created: Node };
    expect(await modelNode(byKey.created.id)).toMatchObject({ type: "INSTANCE", mainComponentId: "2:3" });
    const unknown = await callTool(agent, "create_component_instance", { componentKey: "d".repeat(40), x: 0, y: 0 });
    expect(textOf(unknown)).toBe(`Error: No published component with key ${"d".repeat(40)} is available to this file: check the key and that its library is enabled (404)`);
  });

  test("delete_node and delete_multiple_nodes", async () => {
    await ok("delete_node", { nodeId: "1:3" });
    expect(await modelNode("1:3")).toBeUndefined();
    const r = await ok("delete_multiple_nodes", { nodeIds: ["3:10", "3:11", "1:3"] });
    expect(r).toMatchObject({ deleted: ["3:10", "3:11"], notFound: ["1:3"] });
    expect(await modelNode("3:10")).toBeUndefined();
  });
});

describe("errors the agent can act on", () => {
  test("a node that does not exist", async () => {
    const r = await callTool(agent, "get_node_info", { nodeId: "42:42" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Error: Node 42:42 not found in "Landing page": it may have been deleted; call get_selection or get_document_info for current ids (404)');
  });

  test("invalid arguments never reach the plugin", async () => {
    const before = plugin.messages.filter((m) => m.type === "command").length;
    const r = await callTool(agent, "set_fill_color", { nodeId: "frame one", r: 2, g: 0, b: 0 });
    expect(textOf(r)).toBe(
      'Error: Invalid input: nodeId must be a Figma node id such as "12:34" (as get_selection or get_document_info return it) or a Figma link to the layer (https://www.figma.com/design/…?node-id=12-34); r must be at most 1 (400)',
    );
    expect(plugin.messages.filter((m) => m.type === "command").length).toBe(before);
  });
});
