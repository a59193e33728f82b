// get_component_properties: a component's (or component set's) property definitions, or an instance's values.
import { figmaTool } from "../figma-tool.js";
import { nodeId, READ } from "../schema.js";

export const getComponentProperties = figmaTool({
  name: "get_component_properties",
  title: "Get component properties",
  description:
    "The properties of a component, component set or instance: name (Figma's, e.g. \"Label#12:3\"), displayName, type (VARIANT, BOOLEAN, TEXT, INSTANCE_SWAP), defaultValue, variantOptions, " +
    "preferredValues, and for an instance its current value and main component. Use the names with set_instance_properties.",
  args: { nodeId: nodeId("A component, component set or instance") },
  annotations: READ,
});
