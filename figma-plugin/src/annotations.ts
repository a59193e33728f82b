/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// Dev Mode annotations: what a designer leaves on a layer for the developer (a note, pinned
// properties such as width or fills, a category). Read on a layer or everything under it; written
// by replacing or appending to a layer's list. Categories are referred to by their label.
import { CommandError, page, sceneNode, type Handler } from "./kit.js";

declare const figma: PluginAPI;

async function categories(): Promise<AnnotationCategory[]> {
  return figma.annotations.getAnnotationCategoriesAsync();
}

function describe(a: Annotation, byId: Map<string, AnnotationCategory>) {
  const category = a.categoryId ? byId.get(a.categoryId)?.label : undefined;
  return {
    ...(a.label ? { label: a.label } : {}),
    ...(a.labelMarkdown ? { labelMarkdown: a.labelMarkdown } : {}),
    ...(a.properties?.length ? { properties: a.properties.map((p) => p.type) } : {}),
    ...(category ? { category } : {}),
  };
}

const annotated = (n: BaseNode): n is SceneNode & AnnotationsMixin => "annotations" in n;

export const annotationCommands: Record<string, Handler> = {
  async get_annotations({ nodeId, includeChildren = false, limit = 100, cursor }) {
    const root = await sceneNode(nodeId);
    const cats = await categories();
    const byId = new Map(cats.map((c) => [c.id, c]));
    const nodes: (SceneNode & AnnotationsMixin)[] = [];
    if (annotated(root) && root.annotations.length) nodes.push(root);
    if (includeChildren && "findAll" in root) nodes.push(...(root.findAll((n) => annotated(n) && n.annotations.length > 0) as (SceneNode & AnnotationsMixin)[]));
    const { items, ...paging } = page(nodes, limit, cursor);
    return {
      nodeId,
      categories: cats.map((c) => ({ id: c.id, label: c.label, color: c.color })),
      nodes: items.map((n) => ({ nodeId: n.id, name: n.name, type: n.type, annotations: n.annotations.map((a) => describe(a, byId)) })),
      ...paging,
    };
  },

  async set_annotations({ nodeId, annotations, mode = "replace" }) {
    const n = await sceneNode(nodeId);
    if (!annotated(n)) throw new CommandError("invalid_input", `Node ${nodeId} (${n.type}) cannot carry annotations`);
    const cats = await categories();
    const written: Annotation[] = [];
    for (const [i, a] of (annotations as { label?: string; labelMarkdown?: string; properties?: string[]; category?: string }[]).entries()) {
      if (a.label && a.labelMarkdown) throw new CommandError("invalid_input", `annotations[${i}]: pass label or labelMarkdown, not both`);
      if (!a.label && !a.labelMarkdown && !a.properties?.length) throw new CommandError("invalid_input", `annotations[${i}]: needs a label, labelMarkdown or properties`);
      let categoryId: string | undefined;
      if (a.category) {
        const c = cats.find((x) => x.label.toLowerCase() === a.category!.toLowerCase());
        if (!c) throw new CommandError("invalid_input", `annotations[${i}]: no annotation category "${a.category}" in this file (it has ${cats.map((x) => `"${x.label}"`).join(", ") || "none"})`);
        categoryId = c.id;
      }
      written.push({
        ...(a.label ? { label: a.label } : {}),
        ...(a.labelMarkdown ? { labelMarkdown: a.labelMarkdown } : {}),
        ...(a.properties?.length ? { properties: a.properties.map((type) => ({ type: type as AnnotationPropertyType })) } : {}),
        ...(categoryId ? { categoryId } : {}),
      });
    }
    n.annotations = mode === "append" ? [...n.annotations, ...written] : written;
    const byId = new Map(cats.map((c) => [c.id, c]));
    return { nodeId, name: n.name, annotations: n.annotations.map((a) => describe(a, byId)) };
  },
};
