/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// Component properties: what a component (or component set) defines, what an instance has set,
// and setting an instance's variant, boolean, text and instance-swap properties. Property names
// are Figma's (non-variant ones end in "#id"); the name without that suffix is accepted when it is
// unambiguous.
import { CommandError, node, type Handler } from "./kit.js";

declare const figma: PluginAPI;

const displayName = (name: string) => name.replace(/#[^#]*$/, "");

interface Owner {
  /** Where the definitions live: the component set for variants, else the component. */
  definitions: ComponentPropertyDefinitions;
  values?: ComponentProperties;
  main?: ComponentNode | null;
  node: BaseNode;
}

async function ownerOf(n: BaseNode): Promise<Owner> {
  if (n.type === "INSTANCE") {
    const main = await n.getMainComponentAsync();
    const defsFrom = main?.parent?.type === "COMPONENT_SET" ? main.parent : main;
    return { definitions: defsFrom?.componentPropertyDefinitions ?? {}, values: n.componentProperties, main, node: n };
  }
  if (n.type === "COMPONENT" && n.parent?.type === "COMPONENT_SET") {
    const values: ComponentProperties = {};
    for (const [k, v] of Object.entries(n.variantProperties ?? {})) values[k] = { type: "VARIANT", value: v };
    return { definitions: n.parent.componentPropertyDefinitions, values, node: n };
  }
  if (n.type === "COMPONENT" || n.type === "COMPONENT_SET") return { definitions: n.componentPropertyDefinitions, node: n };
  throw new CommandError("invalid_input", `Node ${n.id} is a ${n.type}: component properties belong to components, component sets and instances (scan_nodes_by_types finds them)`);
}

async function describe(o: Owner) {
  const swapName = async (id: unknown) => (typeof id === "string" ? ((await figma.getNodeByIdAsync(id))?.name ?? null) : null);
  const properties = [];
  for (const [name, def] of Object.entries(o.definitions)) {
    const current = o.values?.[name];
    properties.push({
      name,
      displayName: displayName(name),
      type: def.type,
      defaultValue: def.defaultValue,
      ...(current ? { value: current.value } : {}),
      ...(def.type === "INSTANCE_SWAP" ? { valueName: await swapName(current?.value ?? def.defaultValue) } : {}),
      ...(def.variantOptions ? { variantOptions: def.variantOptions } : {}),
      ...(def.preferredValues?.length ? { preferredValues: def.preferredValues } : {}),
      ...(def.description ? { description: def.description } : {}),
    });
  }
  const set = o.main?.parent?.type === "COMPONENT_SET" ? o.main.parent : null;
  return {
    nodeId: o.node.id,
    name: o.node.name,
    type: o.node.type,
    ...(o.main ? { mainComponent: { id: o.main.id, key: o.main.key, name: o.main.name, ...(set ? { set: set.name } : {}) } } : {}),
    properties,
  };
}

export const componentCommands: Record<string, Handler> = {
  async get_component_properties({ nodeId }) {
    return describe(await ownerOf(await node(nodeId)));
  },

  async set_instance_properties({ nodeId, properties }) {
    const n = await node(nodeId);
    if (n.type !== "INSTANCE") throw new CommandError("invalid_input", `Node ${nodeId} is a ${n.type}, not an instance: properties are set on instances (get_component_properties shows a component's definitions)`);
    const owner = await ownerOf(n);
    const defs = owner.definitions;
    const names = Object.keys(defs);
    const problems: string[] = [];
    const toSet: Record<string, string | boolean> = {};
    for (const [given, value] of Object.entries(properties as Record<string, string | boolean>)) {
      const name = defs[given] ? given : names.filter((k) => displayName(k) === given).length === 1 ? names.find((k) => displayName(k) === given)! : undefined;
      if (!name) {
        const list = names.map((k) => `"${k}"`).join(", ") || "none";
        problems.push(`no property "${given}" (this instance's component has ${list})`);
        continue;
      }
      const def = defs[name]!;
      if (def.type === "BOOLEAN" && typeof value !== "boolean") problems.push(`"${name}" is a BOOLEAN property: pass true or false`);
      else if (def.type !== "BOOLEAN" && typeof value !== "string") problems.push(`"${name}" is a ${def.type} property: pass a string`);
      else if (def.type === "VARIANT" && !def.variantOptions?.includes(value as string)) problems.push(`"${name}" has no variant "${value}" (options: ${def.variantOptions?.map((o) => `"${o}"`).join(", ")})`);
      else if (def.type === "INSTANCE_SWAP") {
        const target = await figma.getNodeByIdAsync(value as string);
        if (!target || (target.type !== "COMPONENT" && target.type !== "COMPONENT_SET")) problems.push(`"${name}" swaps instances: pass a component's node id (get_local_components lists them), not ${JSON.stringify(value)}`);
        else toSet[name] = target.type === "COMPONENT_SET" ? target.defaultVariant.id : target.id;
        continue;
      }
      toSet[name] = value;
    }
    if (problems.length) throw new CommandError("invalid_input", `Nothing was changed: ${problems.join("; ")}`);
    // Text properties draw with the fonts of the layers they feed.
    const textLayers = "findAll" in n ? n.findAll((c) => c.type === "TEXT") : [];
    for (const t of textLayers as TextNode[]) {
      const fonts = t.fontName === figma.mixed ? t.getRangeAllFontNames(0, t.characters.length) : [t.fontName as FontName];
      await Promise.all(fonts.map((f) => figma.loadFontAsync(f))).catch(() => undefined);
    }
    n.setProperties(toSet);
    return { updated: Object.keys(toSet), ...(await describe(await ownerOf(n))) };
  },
};
