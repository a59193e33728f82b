// Placeholder until the knowledge domain lands (its helper replaces this file).
import { defineDomain } from "../../mcp/define.js";

export default defineDomain({
  name: "knowledge",
  title: "knowledge",
  version: "0.1.0",
  description: "",
  instructions: "",
  access: "signed-in",
  tools: [],
});
