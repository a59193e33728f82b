// Placeholder until the dermal domain lands (its helper replaces this file).
import { defineDomain } from "../../mcp/define.js";

export default defineDomain({
  name: "dermal",
  title: "dermal",
  version: "0.1.0",
  description: "",
  instructions: "",
  access: "signed-in",
  tools: [],
});
