// create_diagram: Mermaid source → editable objects, laid out by the suite's Mermaid engine. The
// engine's own layout of the same code (its worker pool, run here) is the reference: a flowchart in
// FigJam gives one shape per vertex and one connector per edge, in the engine's order, at the
// engine's relative positions, joined as the edges say; subgraphs become sections. A design file gets
// auto-layout frames and vectors; a pie chart comes as an imported SVG with a sentence; a syntax
// error is refused before anything is drawn. Checked in the plugin's document model.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import type { DiagramLayout } from "../../functions/src/contracts/figma-plugin.js";
import { RenderPool } from "../../functions/src/platform/mermaid/pool.js";
import { createUser, type TestUser } from "../support/emulators.js";
import type { PluginProcess } from "./plugin.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, succeeds, textOf } from "./support.js";

let user: TestUser;
let agent: Client;
let pool: RenderPool;

type Node = { id: string; type: string; name: string; x: number; y: number; width: number; height: number; children?: Node[]; [k: string]: unknown };
const find = (root: Node, id: string): Node | undefined => (root.id === id ? root : root.children?.map((c) => find(c, id)).find(Boolean));
const all = (root: Node, type: string): Node[] => [...(root.type === type ? [root] : []), ...(root.children ?? []).flatMap((c) => all(c, type))];

const FLOWCHART = `flowchart LR
  subgraph Checkout
    A[Cart] --> B{Paid?}
  end
  B -->|yes| C(Ship)
  B -. no .-> A
  C --> D[(Orders)]`;

beforeAll(async () => {
  user = await createUser();
  agent = await figmaClient(user);
  pool = new RenderPool(1);
});
afterAll(async () => {
  await agent?.close();
  await stopAllPlugins();
  await pool?.close();
});

describe("in a FigJam board", () => {
  let board: PluginProcess;
  beforeAll(async () => {
    board = await openPlugin(user, { fileName: "Architecture", editorType: "figjam" });
    // Both engines start their worker here (hook time), not inside a test: the function's through a
    // call refused at parse, which draws nothing.
    await Promise.all([pool.run({ op: "verify", code: "flowchart TD\n  A --> B" }), callTool(agent, "create_diagram", { code: "flowchart TD\n  A -->" })]);
  });
  afterAll(async () => board?.close());

  test("a flowchart: one shape per vertex and one connector per edge, in the engine's order and relative positions; one undo step", async () => {
    const engine = await pool.run<DiagramLayout>({ op: "layout", code: FLOWCHART });
    expect(engine.nodes.map((n) => n.id)).toEqual(["A", "B", "C", "D"]);
    const before = ((await board.dump()) as Node).undoSteps as number;

    const r = await succeeds(agent, "create_diagram", { code: FLOWCHART, x: 2000, y: 500, name: "Checkout flow" });
    expect(r).toMatchObject({ diagramType: "flowchart-v2", editorType: "figjam", container: { type: "SECTION", name: "Checkout flow", x: 2000, y: 500 }, groups: ["Checkout"] });
    const made = r.nodes as { mermaidId: string; id: string }[];
    expect(made.map((n) => n.mermaidId)).toEqual(["A", "B", "C", "D"]);

    const doc = (await board.dump()) as Node;
    expect((doc.undoSteps as number) - before).toBe(1);
    const section = find(doc, (r.container as { id: string }).id)!;
    // The subgraph is a section inside the diagram's section, holding its two vertices.
    const group = section.children!.find((c) => c.type === "SECTION" && c.name === "Checkout")!;
    expect(group.children!.map((c) => c.text)).toEqual(["Cart", "Paid?"]);
    const shapes = all(section, "SHAPE_WITH_TEXT");
    expect(shapes.map((s) => s.text)).toEqual(["Cart", "Paid?", "Ship", "Orders"]);
    expect(shapes.map((s) => s.shapeType)).toEqual(["SQUARE", "DIAMOND", "ROUNDED_RECTANGLE", "ENG_DATABASE"]);

    // Places on the page (a shape in the group section is relative to it), against the engine's, relative to the first vertex.
    const onPage = (n: Node) => {
      let [x, y] = [n.x, n.y];
      for (const s of [group, section]) if (find(s, n.id) && s !== n) [x, y] = [x + s.x, y + s.y];
      return { x, y, width: n.width, height: n.height };
    };
    const placed = made.map((m) => onPage(find(doc, m.id)!));
    engine.nodes.forEach((n, i) => {
      expect(placed[i]!.x - placed[0]!.x, n.id).toBeCloseTo(n.x - engine.nodes[0]!.x, 1);
      expect(placed[i]!.y - placed[0]!.y, n.id).toBeCloseTo(n.y - engine.nodes[0]!.y, 1);
      expect(placed[i]!.width, n.id).toBeCloseTo(n.width, 1);
      expect(placed[i]!.height, n.id).toBeCloseTo(n.height, 1);
    });
    // Left to right as the code says (LR): Cart, then Paid?, then Ship, then Orders.
    expect(placed.map((p) => p.x)).toEqual([...placed.map((p) => p.x)].sort((a, b) => a - b));

    // One connector per edge, in the engine's order, joining the shapes the edges name.
    const idOf = new Map(made.map((m) => [m.mermaidId, m.id]));
    const connectors = (r.connectors as { id: string }[]).map((c) => find(doc, c.id)!);
    expect(connectors).toHaveLength(engine.edges.length);
    expect(all(doc, "CONNECTOR").filter((c) => connectors.includes(c))).toHaveLength(4);
    expect(connectors.map((c) => [(c.connectorStart as { endpointNodeId: string }).endpointNodeId, (c.connectorEnd as { endpointNodeId: string }).endpointNodeId])).toEqual(
      engine.edges.map((e) => [idOf.get(e.from as string), idOf.get(e.to as string)]),
    );
    expect(connectors.map((c) => c.text)).toEqual(["", "yes", "no", ""]);
    expect(connectors.map((c) => c.connectorEndStrokeCap)).toEqual(["ARROW_LINES", "ARROW_LINES", "ARROW_LINES", "ARROW_LINES"]);
    expect(connectors[2]!.dashPattern).toEqual([4, 4]);
  });

  test("a sequence diagram: actors as shapes, lifelines and messages as connectors at the engine's heights", async () => {
    const code = "sequenceDiagram\n  Alice->>Bob: Hello\n  Bob-->>Alice: Hi back";
    const r = await succeeds(agent, "create_diagram", { code, x: 0, y: 3000 });
    expect((r.nodes as { mermaidId: string }[]).map((n) => n.mermaidId)).toEqual(["Alice", "Bob"]);
    const doc = (await board.dump()) as Node;
    const messages = (r.connectors as { id: string; label?: string }[]).filter((c) => c.label).map((c) => find(doc, c.id)!);
    expect(messages.map((m) => m.text)).toEqual(["Hello", "Hi back"]);
    const [hello, back] = messages.map((m) => ({ from: (m.connectorStart as { position: { x: number; y: number } }).position, to: (m.connectorEnd as { position: { x: number; y: number } }).position }));
    expect(hello!.from.x).toBeLessThan(hello!.to.x); // Alice → Bob: left to right
    expect(back!.from.x).toBeGreaterThan(back!.to.x);
    expect(back!.from.y).toBeGreaterThan(hello!.from.y); // the reply comes below
  });

  test("a pie chart is imported as an SVG picture, and the answer says so; a syntax error draws nothing", async () => {
    const r = await succeeds(agent, "create_diagram", { code: 'pie title Pets\n  "Dogs" : 3\n  "Cats" : 2' });
    expect(r).toMatchObject({ imported: "svg", container: { type: "FRAME" } });
    expect(r.note).toBe("pie diagrams are not taken apart into shapes: the diagram was imported as a picture (SVG), its parts editable as vectors and text");
    const before = JSON.stringify(await board.dump());
    const bad = await callTool(agent, "create_diagram", { code: "flowchart TD\n  A --> " });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Error: .*\(400\)$/);
    expect(JSON.stringify(await board.dump())).toBe(before);
  });
});

describe("in a design file", () => {
  test("frames with auto-layout per vertex and a vector per edge, on the page asked for", async () => {
    const design = await openPlugin(user, { fileName: "Landing page" });
    const r = await succeeds(agent, "create_diagram", { code: "flowchart TD\n  A[Start] --> B[End]", pageId: "0:2", x: 0, y: 400 });
    expect(r).toMatchObject({ editorType: "figma", container: { type: "FRAME", x: 0, y: 400 } });
    const doc = (await design.dump()) as Node;
    const components = find(doc, "0:2")!;
    const frame = components.children!.find((c) => c.id === (r.container as { id: string }).id)!;
    const boxes = frame.children!.filter((c) => c.type === "FRAME");
    expect(boxes.map((b) => b.name)).toEqual(["Start", "End"]);
    expect(boxes.every((b) => b.layoutMode === "VERTICAL" && b.primaryAxisAlignItems === "CENTER")).toBe(true);
    expect(boxes.map((b) => b.children![0]!.characters)).toEqual(["Start", "End"]);
    expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y); // TD: top to bottom
    const lines = frame.children!.filter((c) => c.type === "VECTOR");
    expect(lines).toHaveLength(1);
    const net = lines[0]!.vectorNetwork as { vertices: { x: number; y: number; strokeCap: string }[] };
    expect(net.vertices.map((v) => v.strokeCap)).toEqual(["NONE", "ARROW_LINES"]);
    expect(net.vertices[1]!.y).toBeGreaterThan(net.vertices[0]!.y);
    await design.close();
  });
});
