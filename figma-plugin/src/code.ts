/// <reference types="@figma/plugin-typings" />
// The plugin's main thread (Figma's sandbox: document access, no network of its own here). The UI
// iframe pairs, long-polls and posts answers; it hands each command to this thread, which runs it
// against the open file and answers. clientStorage (the device credential) is reachable only from
// here, so the UI asks for it by message.
import { runCommand } from "./commands.js";
import type { PluginCommand } from "../../functions/src/contracts/figma-plugin.js";
import type { SessionContext } from "../../functions/src/contracts/figma-plugin-requests.js";

figma.showUI(__html__, { width: 320, height: 380, themeColors: true, title: "MCP Bridge" });

function context(): SessionContext {
  return {
    figmaUserId: figma.currentUser?.id ?? "unknown",
    figmaUserName: figma.currentUser?.name ?? "",
    fileKey: figma.fileKey ?? "",
    fileName: figma.root.name,
    pageId: figma.currentPage.id,
    pageName: figma.currentPage.name,
  };
}

const postContext = () => figma.ui.postMessage({ type: "context", context: context() });
figma.on("currentpagechange", postContext);

type FromUi =
  | { type: "ready" }
  | { type: "command"; command: PluginCommand }
  | { type: "storage-get"; requestId: number; key: string }
  | { type: "storage-set"; requestId: number; key: string; value: unknown }
  | { type: "storage-delete"; requestId: number; key: string }
  | { type: "notify"; message: string }
  | { type: "open-url"; url: string };

figma.ui.onmessage = async (msg: FromUi) => {
  switch (msg.type) {
    case "ready":
      postContext();
      break;
    case "command": {
      const answer = await runCommand(msg.command.tool, msg.command.args);
      figma.ui.postMessage({ type: "answer", commandId: msg.command.commandId, answer });
      break;
    }
    case "storage-get":
      figma.ui.postMessage({ type: "storage", requestId: msg.requestId, value: (await figma.clientStorage.getAsync(msg.key)) ?? null });
      break;
    case "storage-set":
      await figma.clientStorage.setAsync(msg.key, msg.value);
      figma.ui.postMessage({ type: "storage", requestId: msg.requestId, value: null });
      break;
    case "storage-delete":
      await figma.clientStorage.deleteAsync(msg.key);
      figma.ui.postMessage({ type: "storage", requestId: msg.requestId, value: null });
      break;
    case "notify":
      figma.notify(msg.message);
      break;
    case "open-url":
      figma.openExternal(msg.url);
      break;
  }
};
