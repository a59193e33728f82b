// set_instance_properties: an instance's variant, boolean, text and instance-swap properties.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

export const setInstanceProperties = figmaTool({
  name: "set_instance_properties",
  title: "Set instance properties",
  description:
    'Sets properties of a component instance: variants by value (e.g. {"Size": "Large"}), booleans (true/false), text (a string) and instance swaps (a component\'s node id). ' +
    'Names as get_component_properties gives them ("Label#12:3"), or without the "#…" suffix when unambiguous. Nothing changes when any value is invalid.',
  args: {
    nodeId: nodeId("The instance"),
    properties: z
      .record(z.string().min(1).max(200), z.union([z.string().max(10_000), z.boolean()]))
      .refine((p) => Object.keys(p).length >= 1 && Object.keys(p).length <= 50, { error: "properties must name 1–50 properties" })
      .describe('Property name → value, e.g. {"Size": "Large", "Show icon#4:5": false, "Label#1:2": "Buy now"}'),
  },
  annotations: UPDATE,
});
