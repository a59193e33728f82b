// get_selection: what the user has selected on the current page.
import { figmaTool } from "../figma-tool.js";
import { READ } from "../schema.js";

export const getSelection = figmaTool({
  name: "get_selection",
  title: "Get selection",
  description: "The layers the user has selected in Figma right now (id, name, type, position, size), and the current page. An empty list when nothing is selected.",
  args: {},
  annotations: READ,
});
