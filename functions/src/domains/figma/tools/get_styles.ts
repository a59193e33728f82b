// get_styles: the file's local paint, text, effect and grid styles.
import { figmaTool } from "../figma-tool.js";
import { READ } from "../schema.js";

export const getStyles = figmaTool({
  name: "get_styles",
  title: "Get styles",
  description: "The file's local styles: colors (paint styles with their paints), text styles (font, size, line height), effect styles and grid styles, each with id, key and name.",
  args: {},
  annotations: READ,
});
