// create_variable: a variable in a collection, with a value per mode.
import { z } from "zod";
import { invalidInput } from "../../../core/errors.js";
import { figmaTool } from "../figma-tool.js";
import { color, CREATE } from "../schema.js";

export const createVariable = figmaTool({
  name: "create_variable",
  title: "Create variable",
  description:
    "Creates a variable (COLOR, FLOAT, STRING or BOOLEAN) in a collection (by id or name) and sets its value per mode by mode name, e.g. {\"Light\": {r:1,g:1,b:1}, \"Dark\": {r:0,g:0,b:0}}. Bind it with bind_variable.",
  args: {
    collection: z.string().trim().min(1).max(200).describe("The collection's id or name"),
    name: z.string().trim().min(1).max(200).describe('The variable\'s name ("color/surface")'),
    type: z.enum(["COLOR", "FLOAT", "STRING", "BOOLEAN"]).describe("Its type"),
    values: z.record(z.string().max(100), z.union([color, z.number(), z.string().max(10_000), z.boolean()])).optional().describe("Value per mode name"),
  },
  annotations: CREATE,
  async prepare(args) {
    // Each value must be of the variable's type: refused here, before Figma sees it.
    const wrong = Object.entries((args.values ?? {}) as Record<string, unknown>).filter(([, v]) => {
      switch (args.type) {
        case "COLOR":
          return typeof v !== "object";
        case "FLOAT":
          return typeof v !== "number";
        case "STRING":
          return typeof v !== "string";
        default:
          return typeof v !== "boolean";
      }
    });
    if (wrong.length) throw invalidInput(`values for ${wrong.map(([m]) => JSON.stringify(m)).join(", ")} are not ${String(args.type)} values`);
    return args;
  },
});
