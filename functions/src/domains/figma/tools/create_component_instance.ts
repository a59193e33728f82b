// create_component_instance: an instance of a local component (by id) or a library one (by key).
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { coordinate, CREATE, nodeId, parentArg } from "../schema.js";

export const createComponentInstance = figmaTool({
  name: "create_component_instance",
  title: "Create component instance",
  description:
    "Places an instance of a component at x, y: a component of this file by componentId (from get_local_components), or a published library component by componentKey. Returns the instance's id.",
  args: {
    componentId: nodeId("A local component's id").optional(),
    componentKey: z.string().regex(/^[0-9a-f]{40}$/, { error: "componentKey must be a component key (40 hex digits) as get_local_components returns it" }).optional(),
    x: coordinate("X position"),
    y: coordinate("Y position"),
    parentId: parentArg,
  },
  annotations: CREATE,
});
