// FigJam boards through the same relay: get_board reads a board (stickies, shapes with text,
// connectors and what they connect, sections and what they hold); the write tools add a section,
// a sticky in it, a shape and a connector between them, and gather an existing sticky into the
// section. The board is read back through get_board and checked in the plugin's document model
// (each write one undo step). FigJam-only tools in a design file are refused with a sentence.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { createUser, type TestUser } from "../support/emulators.js";
import type { PluginProcess } from "./plugin.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, succeeds, textOf } from "./support.js";

let user: TestUser;
let board: PluginProcess;
let agent: Client;

type Item = { id: string; type: string; [k: string]: unknown };
type Node = { id: string; type: string; children?: Node[]; [k: string]: unknown };
async function model(): Promise<{ root: Node; find: (id: string) => Node | undefined }> {
  const root = (await board.dump()) as Node;
  const find = (id: string, n: Node = root): Node | undefined => (n.id === id ? n : n.children?.map((c) => find(id, c)).find(Boolean));
  return { root, find };
}

beforeAll(async () => {
  user = await createUser();
  board = await openPlugin(user, { fileName: "Team retro", editorType: "figjam", fileKey: "RetroBoard0123456789" });
  agent = await figmaClient(user);
});
afterAll(async () => {
  await agent?.close();
  await stopAllPlugins();
});

const inBoard = (name: string, args: Record<string, unknown> = {}) => succeeds(agent, name, { sessionId: board.roomId, ...args });

describe("reading a board", () => {
  test("get_board: sections with their items, stickies, a shape and a connector with what it connects", async () => {
    const r = await inBoard("get_board");
    expect(r).toMatchObject({ editorType: "figjam", page: { name: "Page 1" }, truncated: false, counts: { SECTION: 1, STICKY: 2, SHAPE_WITH_TEXT: 1, CONNECTOR: 1 } });
    expect(r.items).toEqual([
      { id: "5:1", type: "SECTION", name: "Ideas", x: 0, y: 0, width: 800, height: 400, childCount: 2, color: "#FFFFFF" },
      { id: "5:2", type: "STICKY", name: "Ship faster", x: 40, y: 80, width: 240, height: 240, sectionId: "5:1", text: "Ship faster", color: "#FFE8A3", author: "Ada" },
      { id: "5:3", type: "STICKY", name: "Fewer meetings", x: 320, y: 80, width: 240, height: 240, sectionId: "5:1", text: "Fewer meetings", color: "#A8D9FF", author: "Ada" },
      { id: "5:4", type: "SHAPE_WITH_TEXT", name: "Goal", x: 1000, y: 100, width: 208, height: 208, shapeType: "DIAMOND", text: "Q3 goal", color: "#E6E6E6" },
      {
        id: "5:5", type: "CONNECTOR", name: "Connector", x: 0, y: 0, width: 100, height: 100,
        from: { nodeId: "5:4", name: "Goal", type: "SHAPE_WITH_TEXT", magnet: "AUTO" },
        to: { nodeId: "5:2", name: "Ship faster", type: "STICKY", magnet: "AUTO" },
        lineType: "ELBOWED", startCap: "NONE", endCap: "ARROW_LINES",
      },
    ]);
  });

  test("one section by its link, only some kinds, paged", async () => {
    const section = await succeeds(agent, "get_board", { nodeId: "https://www.figma.com/board/RetroBoard0123456789/Team-retro?node-id=5-1" });
    expect(section.sessionId).toBe(board.roomId);
    expect((section.items as Item[]).map((i) => i.id)).toEqual(["5:2", "5:3"]);
    const connectors = await inBoard("get_board", { types: ["CONNECTOR"] });
    expect((connectors.items as Item[]).map((i) => i.id)).toEqual(["5:5"]);
    const first = await inBoard("get_board", { limit: 2 });
    expect(first).toMatchObject({ truncated: true, nextCursor: "2" });
    const rest = await inBoard("get_board", { limit: 2, cursor: "2" });
    expect((rest.items as Item[]).map((i) => i.id)).toEqual(["5:3", "5:4"]);
  });
});

describe("writing a board", () => {
  test("section, sticky in it, shape, connector between them, an existing sticky gathered in: read back the same", async () => {
    const before = ((await model()).root.undoSteps as number) ?? 0;
    const section = (await inBoard("create_section", { name: "Actions", x: 0, y: 600, width: 900, height: 500, fillColor: { r: 0.9, g: 1, b: 0.9 } })).created as Item;
    const sticky = (await inBoard("create_sticky", { text: "Cut scope", color: "green", x: 40, y: 60, parentId: section.id, wide: true })).created as Item;
    const shape = (await inBoard("create_shape_with_text", { shapeType: "ENG_DATABASE", text: "Backlog", x: 1100, y: 700, width: 160, height: 120 })).created as Item;
    const connector = (await inBoard("create_connector", { startNodeId: sticky.id, endNodeId: shape.id, text: "feeds", lineType: "STRAIGHT" })).created as Item;
    const gathered = await inBoard("create_section", { name: "Parked", x: 300, y: 50, width: 400, height: 400, childIds: ["5:3"] });
    expect(gathered.moved).toEqual(["5:3"]);

    const read = await inBoard("get_board");
    expect(read.counts).toEqual({ SECTION: 3, STICKY: 3, SHAPE_WITH_TEXT: 2, CONNECTOR: 2 });
    const items = read.items as Item[];
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(byId.get(section.id)).toMatchObject({ type: "SECTION", name: "Actions", x: 0, y: 600, width: 900, height: 500, childCount: 1, color: "#E6FFE6" });
    expect(byId.get(sticky.id)).toMatchObject({ type: "STICKY", text: "Cut scope", color: "#B3F0BA", wide: true, sectionId: section.id, x: 40, y: 60 });
    expect(byId.get(shape.id)).toMatchObject({ type: "SHAPE_WITH_TEXT", shapeType: "ENG_DATABASE", text: "Backlog", x: 1100, y: 700, width: 160, height: 120 });
    expect(byId.get(connector.id)).toMatchObject({
      type: "CONNECTOR", text: "feeds", lineType: "STRAIGHT", endCap: "ARROW_LINES",
      from: { nodeId: sticky.id, name: "Sticky", type: "STICKY" }, to: { nodeId: shape.id, type: "SHAPE_WITH_TEXT" },
    });
    // The parked sticky kept its place on the board (320, 80 on the page → 20, 30 in the section at 300, 50).
    expect(byId.get("5:3")).toMatchObject({ sectionId: (gathered.created as Item).id, x: 20, y: 30 });
    // Document order: each section followed by what it holds.
    const order = items.map((i) => i.id);
    expect(order.indexOf(sticky.id)).toBe(order.indexOf(section.id) + 1);

    // The plugin's own document says the same, and each write was one undo step.
    const { root, find } = await model();
    expect(find(section.id)?.children?.map((c) => c.id)).toEqual([sticky.id]);
    expect(find(sticky.id)).toMatchObject({ type: "STICKY", text: "Cut scope", isWideWidth: true });
    expect(find(connector.id)).toMatchObject({
      connectorStart: { endpointNodeId: sticky.id, magnet: "AUTO" }, connectorEnd: { endpointNodeId: shape.id, magnet: "AUTO" }, connectorLineType: "STRAIGHT", text: "feeds",
    });
    expect(find("5:1")?.children?.map((c) => c.id)).toEqual(["5:2"]);
    expect((root.undoSteps as number) - before).toBe(5);
  });

  test("refused with a sentence: FigJam objects in a design file, a connector to a connector or a missing node, bad arguments", async () => {
    const toConnector = await callTool(agent, "create_connector", { sessionId: board.roomId, startNodeId: "5:2", endNodeId: "5:5" });
    expect(textOf(toConnector)).toContain("Node 5:5 is a connector");
    const missing = await callTool(agent, "create_connector", { sessionId: board.roomId, startNodeId: "5:2", endNodeId: "99:99" });
    expect(textOf(missing)).toMatch(/^Error: Node 99:99 not found in "Team retro".*\(404\)$/);
    const badShape = await callTool(agent, "create_shape_with_text", { sessionId: board.roomId, shapeType: "BLOB" });
    expect(badShape.isError).toBe(true);
    expect(textOf(badShape)).toContain("shapeType");
    const tooLong = await callTool(agent, "create_sticky", { sessionId: board.roomId, text: "x".repeat(10_001) });
    expect(tooLong.isError).toBe(true);
    // Nothing of the refused calls reached the board.
    const { root } = await model();
    const connectors: Node[] = [];
    const walk = (n: Node) => (n.type === "CONNECTOR" && connectors.push(n), n.children?.forEach(walk));
    walk(root);
    expect(connectors.every((c) => (c.connectorEnd as { endpointNodeId?: string }).endpointNodeId !== "5:5")).toBe(true);

    // In a design file (one plugin open at a time: the emulator serves each held poll in its own process).
    await board.close();
    const design = await openPlugin(user, { fileName: "Landing page" });
    const inDesign = await callTool(agent, "create_sticky", { sessionId: design.roomId, text: "Hello" });
    expect(textOf(inDesign)).toBe(
      'Error: Stickies exist only in FigJam boards: "Landing page" is a Figma design file (use create_frame, create_rectangle and create_text there, or open a FigJam board) (400)',
    );
  });
});
