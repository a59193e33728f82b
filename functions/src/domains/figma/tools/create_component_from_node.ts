// create_component_from_node: turns a layer into a component.
import { figmaTool } from "../figma-tool.js";
import { CREATE, nodeId } from "../schema.js";

export const createComponentFromNode = figmaTool({
  name: "create_component_from_node",
  title: "Create component from layer",
  description: "Turns a frame, group or shape into a component in place (its id changes: the answer gives the component's). Returns the component with its key.",
  args: { nodeId: nodeId("The layer to turn into a component") },
  annotations: CREATE,
});
