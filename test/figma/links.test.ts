// Figma links pasted as arguments: a layer link (…/design/<key>/<name>?node-id=12-345, also /file/
// and /board/) is the node, and its file picks the session among several open ones — by the file
// key where the plugin knows it, by the file's name in the link where it does not. A link to a file
// not open anywhere names that file. Checked in the plugins' document models: the write lands in
// the linked file only.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { createUser, type TestUser } from "../support/emulators.js";
import type { PluginProcess } from "./plugin.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, structured, succeeds, textOf } from "./support.js";

let user: TestUser;
let landing: PluginProcess;
let checkout: PluginProcess;
let agent: Client;

const LANDING_KEY = "LaNdInG0123456789abcd";
const CHECKOUT_KEY = "ChEcKoUt0123456789abcd";

type Node = { id: string; name: string; characters?: string; children?: Node[] };
async function modelNode(plugin: PluginProcess, id: string): Promise<Node | undefined> {
  const find = (n: Node): Node | undefined => (n.id === id ? n : n.children?.map(find).find(Boolean));
  return find((await plugin.dump()) as Node);
}

beforeAll(async () => {
  user = await createUser();
  // Both files have a layer 1:2 (the same model): only the link's file tells them apart. The
  // checkout plugin gets no file key from Figma (as for most plugins): its name decides.
  landing = await openPlugin(user, { fileName: "Landing page", fileKey: LANDING_KEY, figmaUserId: "1001", figmaUserName: "Ada" });
  checkout = await openPlugin(user, { fileName: "Checkout flow (v2)", figmaUserId: "1001", figmaUserName: "Ada" });
  agent = await figmaClient(user);
});
afterAll(async () => {
  await agent?.close();
  await stopAllPlugins();
});

describe("a pasted layer link", () => {
  test("reads the layer in the linked file of two open ones (file key)", async () => {
    const info = await succeeds(agent, "get_node_info", { nodeId: `https://www.figma.com/design/${LANDING_KEY}/Landing-page?node-id=1-2&t=abc-0` });
    expect(info).toMatchObject({ sessionId: landing.roomId, fileName: "Landing page", node: { id: "1:2", name: "Title" } });
  });

  test("writes in the linked file only (file name from the link, /file/ form)", async () => {
    const link = `https://www.figma.com/file/${CHECKOUT_KEY}/Checkout-flow-(v2)?type=design&node-id=1-2&mode=design`;
    const r = await succeeds(agent, "set_text_content", { nodeId: link, text: "Pay now" });
    expect(r).toMatchObject({ sessionId: checkout.roomId, updated: { id: "1:2", characters: "Pay now" } });
    expect((await modelNode(checkout, "1:2"))?.characters).toBe("Pay now");
    expect((await modelNode(landing, "1:2"))?.characters).toBe("Welcome");
  });

  test("works in every node argument (parentId, nodeIds) and as sessionId for a file link", async () => {
    const created = await succeeds(agent, "create_rectangle", {
      parentId: `https://figma.com/design/${LANDING_KEY}/Landing-page?node-id=1-1`,
      x: 10, y: 10, width: 20, height: 20, name: "From link",
    });
    expect(created.sessionId).toBe(landing.roomId);
    const id = (created.created as { id: string }).id;
    expect((await modelNode(landing, "1:1"))?.children?.map((c) => c.name)).toContain("From link");
    const many = await succeeds(agent, "get_nodes_info", { nodeIds: [`https://www.figma.com/design/${LANDING_KEY}/x?node-id=${id.replace(":", "-")}`, "1:3"] });
    expect((many.nodes as { name: string }[]).map((n) => n.name)).toEqual(["From link", "Subtitle"]);
    const selection = await succeeds(agent, "get_selection", { sessionId: `https://www.figma.com/design/${LANDING_KEY}/Landing-page` });
    expect(selection.sessionId).toBe(landing.roomId);
  });

  test("a link to a file that is not open names it and lists what is open", async () => {
    const r = await callTool(agent, "get_node_info", { nodeId: "https://www.figma.com/board/ZzZz0123456789abcdef/Team-retro?node-id=4-20" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('The Figma file "Team retro" (file key ZzZz0123456789abcdef) from the link is not open in any of your MCP Bridge sessions');
    expect(textOf(r)).toContain(`"Landing page" (${landing.roomId})`);
    expect(textOf(r)).toMatch(/\(404\)$/);
  });

  test("refused: a room of another file, links to two files, a malformed node-id, a file link as a node", async () => {
    const wrongRoom = await callTool(agent, "get_node_info", { nodeId: `https://www.figma.com/design/${LANDING_KEY}/Landing-page?node-id=1-2`, sessionId: checkout.roomId });
    expect(textOf(wrongRoom)).toBe(
      `Error: The link is to "Landing page" (file key ${LANDING_KEY}) but session ${checkout.roomId} has "Checkout flow (v2)" open: omit sessionId (the link picks its file's session) or pass that file's room id (400)`,
    );
    const two = await callTool(agent, "get_nodes_info", {
      nodeIds: [`https://www.figma.com/design/${LANDING_KEY}/Landing-page?node-id=1-2`, `https://www.figma.com/design/${CHECKOUT_KEY}/Checkout-flow-(v2)?node-id=1-2`],
    });
    expect(textOf(two)).toContain("The links name two different Figma files");
    const bad = await callTool(agent, "get_node_info", { nodeId: `https://www.figma.com/design/${LANDING_KEY}/Landing-page?node-id=abc` });
    expect(textOf(bad)).toContain('The link\'s node-id "abc" is not a Figma layer id');
    const fileOnly = await callTool(agent, "get_node_info", { nodeId: `https://www.figma.com/design/${LANDING_KEY}/Landing-page` });
    expect(textOf(fileOnly)).toContain("names a file but no layer");
    const notALink = await callTool(agent, "get_node_info", { nodeId: "https://example.com/design/x?node-id=1-2" });
    expect(notALink.isError).toBe(true);
    expect(textOf(notALink)).toContain("or a Figma link to the layer");
    // Nothing was written anywhere by the refused calls.
    expect(structured(await callTool(agent, "get_selection", { sessionId: landing.roomId })).count).toBe(1);
  });
});
