/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// Variables as a developer reads them: names (with their collection), resolved types, values per
// mode (colours as hex, aliases by name), and the variables bound anywhere under a node.
import { CommandError, node, type Handler } from "./kit.js";

declare const figma: PluginAPI;

const round = (n: number) => Math.round(n * 1000) / 1000;
const byte = (c: number) => Math.round(Math.min(1, Math.max(0, c)) * 255).toString(16).padStart(2, "0");

/** "#RRGGBB", or "#RRGGBBAA" when the colour is not opaque. */
export function hex(c: RGB | RGBA, opacity = 1): string {
  const a = ("a" in c ? c.a : 1) * opacity;
  return `#${byte(c.r)}${byte(c.g)}${byte(c.b)}${a < 1 ? byte(a) : ""}`.toUpperCase();
}

/** A CSS custom property name: the variable's WEB code syntax when the design system set one. */
export function cssVar(v: Pick<Variable, "name" | "codeSyntax">): string {
  const web = v.codeSyntax?.WEB?.trim();
  const fromSyntax = web?.match(/--[A-Za-z0-9_-]+/)?.[0];
  if (fromSyntax) return fromSyntax;
  return `--${v.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
}

const isAlias = (v: unknown): v is VariableAlias => !!v && typeof v === "object" && (v as VariableAlias).type === "VARIABLE_ALIAS";
const isColor = (v: unknown): v is RGB | RGBA => !!v && typeof v === "object" && "r" in v && "g" in v && "b" in v;

/** Looks variables and collections up once per command (a design context touches the same few often). */
export class VariableIndex {
  private variables = new Map<string, Promise<Variable | null>>();
  private collections = new Map<string, Promise<VariableCollection | null>>();

  variable(id: string): Promise<Variable | null> {
    if (!this.variables.has(id)) this.variables.set(id, figma.variables.getVariableByIdAsync(id).catch(() => null));
    return this.variables.get(id)!;
  }

  collection(id: string): Promise<VariableCollection | null> {
    if (!this.collections.has(id)) this.collections.set(id, figma.variables.getVariableCollectionByIdAsync(id).catch(() => null));
    return this.collections.get(id)!;
  }

  async name(alias: VariableAlias | undefined): Promise<string | undefined> {
    return alias ? ((await this.variable(alias.id))?.name ?? alias.id) : undefined;
  }

  /** A value as JSON: colours as hex, numbers rounded, an alias as the aliased variable's name. */
  async value(v: VariableValue): Promise<unknown> {
    if (isAlias(v)) return { alias: (await this.variable(v.id))?.name ?? v.id };
    if (isColor(v)) return hex(v);
    if (typeof v === "number") return round(v);
    return v;
  }

  /** A variable as a consumer node sees it: the mode that applies there and the value it resolves to. */
  async resolved(v: Variable, consumer: SceneNode): Promise<{ mode?: string; value: unknown }> {
    const collection = await this.collection(v.variableCollectionId);
    const modeId = ("resolvedVariableModes" in consumer ? consumer.resolvedVariableModes?.[v.variableCollectionId] : undefined) ?? collection?.defaultModeId;
    const mode = collection?.modes.find((m) => m.modeId === modeId)?.name;
    let value: unknown;
    try {
      value = await this.value(v.resolveForConsumer(consumer).value);
    } catch {
      value = modeId !== undefined ? await this.value(v.valuesByMode[modeId]!) : undefined;
    }
    return { ...(mode ? { mode } : {}), value };
  }

  /** Every mode's value, by mode name. */
  async byMode(v: Variable): Promise<Record<string, unknown>> {
    const collection = await this.collection(v.variableCollectionId);
    const out: Record<string, unknown> = {};
    for (const [modeId, value] of Object.entries(v.valuesByMode)) {
      out[collection?.modes.find((m) => m.modeId === modeId)?.name ?? modeId] = await this.value(value);
    }
    return out;
  }
}

/** Every variable alias a node binds, as field → aliases (paints' colours included under fills/strokes/effects). */
export function bindingsOf(n: BaseNode): [string, VariableAlias[]][] {
  const out: [string, VariableAlias[]][] = [];
  const bound = ("boundVariables" in n ? n.boundVariables : undefined) as Record<string, VariableAlias | VariableAlias[] | Record<string, VariableAlias>> | undefined;
  for (const [field, value] of Object.entries(bound ?? {})) {
    if (field === "componentProperties" && value && typeof value === "object" && !Array.isArray(value) && !isAlias(value)) {
      for (const [prop, alias] of Object.entries(value)) out.push([`componentProperties.${prop}`, [alias as VariableAlias]]);
    } else if (Array.isArray(value)) out.push([field, value.filter(isAlias)]);
    else if (isAlias(value)) out.push([field, [value]]);
  }
  for (const key of ["fills", "strokes"] as const) {
    if (!(key in n) || out.some(([f]) => f === key)) continue;
    const paints = (n as GeometryMixin)[key];
    if (typeof paints === "symbol") continue;
    const aliases = paints.flatMap((p) => [p.type === "SOLID" ? p.boundVariables?.color : undefined, ...("gradientStops" in p ? p.gradientStops.map((s) => s.boundVariables?.color) : [])]).filter(isAlias);
    if (aliases.length) out.push([key, aliases]);
  }
  return out;
}

/** A variable by id ("VariableID:…") or by name (optionally within a named collection). */
export async function findVariable(ref: string, collectionName?: string): Promise<Variable> {
  if (ref.startsWith("VariableID:")) {
    const v = await figma.variables.getVariableByIdAsync(ref);
    if (!v) throw new CommandError("not_found", `No variable with id ${ref} in this file: get_variable_defs lists them`);
    return v;
  }
  const index = new VariableIndex();
  const candidates: Variable[] = [];
  for (const v of await figma.variables.getLocalVariablesAsync()) {
    if (v.name !== ref) continue;
    if (collectionName && (await index.collection(v.variableCollectionId))?.name !== collectionName) continue;
    candidates.push(v);
  }
  if (!candidates.length) throw new CommandError("not_found", `No variable named "${ref}"${collectionName ? ` in collection "${collectionName}"` : ""} in this file: get_variable_defs lists them`);
  if (candidates.length > 1) {
    const names = await Promise.all(candidates.map(async (v) => `"${(await index.collection(v.variableCollectionId))?.name}" (${v.id})`));
    throw new CommandError("invalid_input", `Several collections have a variable named "${ref}": ${names.join(", ")}. Pass collection or the variable's id`);
  }
  return candidates[0]!;
}

async function describeVariable(v: Variable, index: VariableIndex) {
  const collection = await index.collection(v.variableCollectionId);
  return {
    id: v.id,
    name: v.name,
    collection: collection?.name ?? null,
    type: v.resolvedType,
    valuesByMode: await index.byMode(v),
    cssVar: cssVar(v),
    ...(Object.keys(v.codeSyntax ?? {}).length ? { codeSyntax: v.codeSyntax } : {}),
    ...(v.description ? { description: v.description } : {}),
    ...(v.scopes?.length && !(v.scopes.length === 1 && v.scopes[0] === "ALL_SCOPES") ? { scopes: v.scopes } : {}),
    ...(v.remote ? { remote: true } : {}),
  };
}

function offset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new CommandError("invalid_input", "Invalid cursor: pass the nextCursor of the previous response unchanged, or omit cursor to start over");
  return Number(cursor);
}

export const variableCommands: Record<string, Handler> = {
  async get_variable_defs({ nodeId, collection: collectionName, limit = 200, cursor }) {
    const index = new VariableIndex();
    const collections = await figma.variables.getLocalVariableCollectionsAsync();
    let variables: Variable[];
    let used: { name: string; id: string; fields: string[]; nodes: number; mode?: string; value: unknown }[] | undefined;
    if (nodeId) {
      // The variables bound under the node, each resolved where it is first used (its mode applies there).
      const root = await node(nodeId);
      const uses = new Map<string, { fields: Set<string>; nodes: Set<string>; consumer: SceneNode }>();
      const visit = (n: BaseNode) => {
        for (const [field, aliases] of bindingsOf(n)) {
          for (const a of aliases) {
            const u = uses.get(a.id) ?? { fields: new Set<string>(), nodes: new Set<string>(), consumer: n as SceneNode };
            u.fields.add(field.replace(/^componentProperties\..*/, "componentProperties"));
            u.nodes.add(n.id);
            uses.set(a.id, u);
          }
        }
        if ("children" in n) for (const c of n.children) visit(c);
      };
      visit(root);
      variables = [];
      used = [];
      for (const [id, u] of uses) {
        const v = await index.variable(id);
        if (!v) {
          used.push({ name: id, id, fields: [...u.fields], nodes: u.nodes.size, value: null });
          continue;
        }
        variables.push(v);
        used.push({ name: v.name, id, fields: [...u.fields], nodes: u.nodes.size, ...(await index.resolved(v, u.consumer)) });
      }
    } else {
      variables = await figma.variables.getLocalVariablesAsync();
    }
    if (collectionName) {
      if (!collections.some((c) => c.name === collectionName)) {
        throw new CommandError("not_found", `No variable collection named "${collectionName}": this file has ${collections.map((c) => `"${c.name}"`).join(", ") || "none"}`);
      }
      const ids = new Set(collections.filter((c) => c.name === collectionName).map((c) => c.id));
      variables = variables.filter((v) => ids.has(v.variableCollectionId));
    }
    const start = offset(cursor);
    const pageOf = variables.slice(start, start + limit);
    const end = start + pageOf.length;
    return {
      ...(nodeId ? { nodeId } : {}),
      collections: collections.map((c) => ({
        id: c.id,
        name: c.name,
        modes: c.modes.map((m) => m.name),
        defaultMode: c.modes.find((m) => m.modeId === c.defaultModeId)?.name ?? null,
        variableCount: c.variableIds.length,
      })),
      variables: await Promise.all(pageOf.map((v) => describeVariable(v, index))),
      ...(used ? { used } : {}),
      total: variables.length,
      truncated: end < variables.length,
      ...(end < variables.length ? { nextCursor: String(end) } : {}),
    };
  },
};
