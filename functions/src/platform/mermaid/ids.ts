// Same code + theme → the same SVG, byte for byte, whichever worker renders it and whatever it
// rendered before; and no id shared between two different diagrams on one page. Most of mermaid's ids are derived from the diagram (its root id, node names, a
// per-diagram index), but a few diagram types number elements with counters that live at module
// level and so keep counting across renders in a warm worker. Those ids are renumbered here by
// first appearance in document order, and every reference to them is rewritten to match.
//
// Only the counter families below are touched: other ids with digits are stable and often mean
// something (`flowchart-v2-pointEnd`, `state-Still-3`, a node called `Process1`). The corpus test
// (test/mermaid/determinism.test.ts) renders every diagram after others in the same worker and
// fails if a new mermaid release adds a counter that is not listed here.

interface CounterFamily {
  /** Where mermaid's counter starts in a fresh process (so a first render keeps its ids). */
  start: number;
  /** Ids numbered by this counter: the number is capture group 2, the rest groups 1 and 3. */
  patterns: RegExp[];
}

/** mermaid 12.3's process-wide id counters. */
const COUNTER_FAMILIES: CounterFamily[] = [
  // sequenceDiagram `actorCnt`: lifelines (`actor3`), actor groups (`root-3`), menus (`actor3_popup`).
  { start: 0, patterns: [/^(actor)(\d+)((?:_popup)?)$/, /^(root-)(\d+)()$/] },
  // classDiagram `classCounter`: `<root>-classId-<class name>-3`.
  { start: 0, patterns: [/^(.*\bclassId-.*-)(\d+)()$/] },
  // sankey `Uid.count` (shared by nodes and link gradients): `node-7`, `linearGradient-52`.
  { start: 1, patterns: [/^(node-)(\d+)()$/, /^(linearGradient-)(\d+)()$/] },
];

/** Attributes whose value is a whitespace-separated list of ids. */
const ID_LIST_ATTRS = new Set([
  "aria-labelledby", "aria-describedby", "aria-owns", "aria-controls", "aria-flowto", "aria-details",
  "aria-errormessage", "aria-activedescendant", "for", "headers", "list",
]);

const ID_CHARS = "A-Za-z0-9_.:\\-";

/** The new name of each id that one of mermaid's process-wide counters numbered. */
export function counterIdMap(ids: Iterable<string>, prefix = ""): Map<string, string> {
  const renamed = new Map<string, string>();
  const numbering = COUNTER_FAMILIES.map(() => new Map<string, number>());
  for (const id of ids) {
    if (renamed.has(id)) continue;
    COUNTER_FAMILIES.some((family, i) =>
      family.patterns.some((pattern) => {
        const m = pattern.exec(id);
        if (!m) return false;
        const values = numbering[i]!;
        // One counter value is one thing (an actor's line, group and menu share it): same new number.
        if (!values.has(m[2]!)) values.set(m[2]!, family.start + values.size);
        // Ids already prefixed with the diagram's own id (class diagrams) keep their form.
        renamed.set(id, `${prefix && !id.startsWith(prefix) ? `${prefix}-` : ""}${m[1]}${values.get(m[2]!)}${m[3]}`);
        return true;
      }),
    );
  }
  // Only real changes (a first render in a fresh process usually has none).
  for (const [from, to] of renamed) if (from === to) renamed.delete(from);
  return renamed;
}

/** `url(#id)` (any quoting) and `#id` selectors/fragments whose id is renamed, rewritten. */
function rewriteRefs(text: string, map: Map<string, string>): string {
  if (!text.includes("#")) return text;
  return text.replace(new RegExp(`#([${ID_CHARS}]+)`, "g"), (whole, id: string) => {
    const to = map.get(id);
    if (to !== undefined) return `#${to}`;
    // A selector such as `#node-3.active` or `#actor2:hover`: the id ends before the `.`/`:`.
    const cut = id.search(/[.:]/);
    const head = cut > 0 ? map.get(id.slice(0, cut)) : undefined;
    return head === undefined ? whole : `#${head}${id.slice(cut)}`;
  });
}

/**
 * Renames the counter-numbered ids under `root` (in document order) and every reference to them:
 * `url(#…)` and `#…` in attributes and `<style>` text, `href`/`xlink:href`, and id lists
 * (`aria-labelledby`, `for`, …). Returns how many ids were renamed.
 */
export function canonicaliseIds(root: Element): number {
  const elements = [root, ...Array.from(root.getElementsByTagName("*"))];
  // Prefixed with the diagram's own id (derived from its code and theme): two diagrams inlined on
  // one page never share an `actor0` or a `linearGradient-1`.
  const map = counterIdMap(
    elements.map((el) => el.getAttribute("id")).filter((id): id is string => !!id),
    root.getAttribute("id") ?? "",
  );
  if (map.size === 0) return 0;
  for (const el of elements) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      let value = attr.value;
      if (name === "id") value = map.get(value) ?? value;
      else if (ID_LIST_ATTRS.has(name)) value = value.split(/(\s+)/).map((t) => map.get(t) ?? t).join("");
      else value = rewriteRefs(value, map);
      if (value !== attr.value) attr.value = value;
    }
    if (el.localName.toLowerCase() === "style" && el.textContent) {
      const css = rewriteRefs(el.textContent, map);
      if (css !== el.textContent) el.textContent = css;
    }
  }
  return map.size;
}
