// HTML labels → plain SVG text, in the same layout. mermaid draws labels as HTML inside
// <foreignObject>, which browsers show well and design tools, slide software, Inkscape and resvg
// (our PNG) do not show at all. Instead of a second render with other settings (a different
// layout), each foreignObject of the finished SVG is replaced by <text> lines placed where the
// HTML lines are: the same line breaks (dom.ts's inline layout, the one that sized the label),
// alignment, font size, weight and colour. Everything else in the SVG is untouched, so the boxes,
// edges and markers of the two variants are identical.
import { fontAscent, fontDescent } from "./fonts.js";
import { htmlLayout, type Run } from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function num(el: Element, name: string): number {
  const v = parseFloat(el.getAttribute(name) ?? "");
  return Number.isFinite(v) ? v : 0;
}

/** The alignment the label's HTML declares (mermaid centres almost everything). */
function alignOf(content: Element): "start" | "middle" | "end" {
  for (let el: Element | null = content; el; el = el.firstElementChild) {
    const align = (el as HTMLElement).style?.getPropertyValue("text-align");
    if (align === "left" || align === "start") return "start";
    if (align === "right" || align === "end") return "end";
    if (align === "center") return "middle";
  }
  return "middle";
}

/** Consecutive runs with the same font and colour, as one tspan each. */
function mergeRuns(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const r of runs) {
    const last = out[out.length - 1];
    if (last && last.font.bold === r.font.bold && last.font.size === r.font.size && last.color === r.color) last.text += r.text;
    else out.push({ ...r });
  }
  return out;
}

/** Replaces every foreignObject under `root` with SVG text in the same place. Returns how many. */
export function htmlLabelsToText(root: Element): number {
  const doc = root.ownerDocument;
  const objects = Array.from(root.getElementsByTagName("foreignObject"));
  for (const fo of objects) {
    const content = fo.firstElementChild;
    const parent = fo.parentNode;
    if (!parent) continue;
    if (!content || !content.textContent?.trim()) {
      parent.removeChild(fo);
      continue;
    }
    const layout = htmlLayout(content);
    const x = num(fo, "x");
    const y = num(fo, "y");
    const width = num(fo, "width") || layout.width;
    const height = num(fo, "height") || layout.height;
    const anchor = alignOf(content);
    const ax = anchor === "middle" ? x + width / 2 : anchor === "end" ? x + width : x;
    // A label block shorter than its box sits at the top (display: table-cell, vertical-align: baseline).
    const top = y + Math.max(0, Math.min(height, layout.height) - layout.height);
    const group = doc.createElementNS(SVG_NS, "g");
    group.setAttribute("class", "text-label");
    const transform = fo.getAttribute("transform");
    if (transform) group.setAttribute("transform", transform);
    layout.lines.forEach((line, i) => {
      const runs = mergeRuns(line.runs).filter((r) => r.text);
      if (!runs.length || !runs.some((r) => r.text.trim())) return;
      const size = Math.max(...runs.map((r) => r.font.size));
      const bold = runs.every((r) => r.font.bold);
      // Half-leading model: the glyph box (ascent + descent) is centred in the line box.
      const baseline = top + i * layout.lineHeight + (layout.lineHeight - (fontAscent(bold) + fontDescent(bold)) * size) / 2 + fontAscent(bold) * size;
      const text = doc.createElementNS(SVG_NS, "text");
      text.setAttribute("x", round(ax));
      text.setAttribute("y", round(baseline));
      text.setAttribute("text-anchor", anchor);
      text.setAttribute("font-size", `${round(size)}px`);
      text.setAttribute("xml:space", "preserve");
      for (const r of runs) {
        const span = doc.createElementNS(SVG_NS, "tspan");
        if (r.font.size !== size) span.setAttribute("font-size", `${round(r.font.size)}px`);
        if (r.font.bold) span.setAttribute("font-weight", "bold");
        if (r.color) span.setAttribute("fill", r.color);
        span.textContent = r.text;
        text.appendChild(span);
      }
      group.appendChild(text);
    });
    parent.replaceChild(group, fo);
  }
  return objects.length;
}

function round(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}
