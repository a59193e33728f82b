// The second line of defence after mermaid's own strict mode: every SVG leaves through here.
// DOMPurify with the svg + svgFilters + html profiles (foreignObject as an HTML integration
// point, so HTML labels survive), then our own rules: <style> kept but its CSS cleaned, no
// external references of any kind, links only to http(s)/mailto on <a>. Serialised as XML so the
// result is a well-formed standalone .svg file.
import type { JSDOM } from "jsdom";

const FORBID_TAGS = [
  "script", "iframe", "frame", "frameset", "object", "embed", "applet", "portal", "link", "meta", "base",
  "img", "image", "feImage", "audio", "video", "source", "track", "picture",
  "form", "input", "button", "textarea", "select", "option",
  "animate", "set", "animateMotion", "animateTransform", "animateColor", "discard", "handler", "listener",
];

const URL_FN = /url\s*\(\s*(['"]?)(.*?)\1\s*\)/gi;

/** CSS that can reference nothing outside the document and execute nothing. */
export function cleanCss(css: string): string {
  return css
    .replace(/\\/g, "") // escapes could spell u\72l( or \@import
    .replace(/<\/?[a-z!][^>]*>?/gi, "")
    .replace(/<!--|-->/g, "")
    .replace(/@import[^;]*;?/gi, "")
    .replace(/@font-face\s*\{[^}]*\}/gi, "")
    .replace(/@namespace[^;]*;?/gi, "")
    .replace(URL_FN, (m, _q, target: string) => (target.trim().startsWith("#") ? `url(${target.trim()})` : "none"))
    .replace(/expression\s*\(/gi, "(")
    .replace(/-moz-binding\s*:[^;}]*/gi, "")
    .replace(/behavior\s*:[^;}]*/gi, "")
    .replace(/javascript\s*:/gi, "")
    .replace(/image-set\s*\(/gi, "(")
    .replace(/src\s*\(/gi, "(");
}

// Coordinates with 15 significant digits only cost bytes: three decimals are sub-pixel.
const GEOMETRY = new Set(["d", "points", "transform", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width", "height", "viewbox"]);

const SAFE_LINK = /^(?:https?:|mailto:)/i;

function isLinkAttr(name: string): boolean {
  return name === "href" || name === "xlink:href" || name === "src" || name === "action" || name === "formaction" || name === "poster" || name === "background";
}

export type Sanitizer = (svg: string) => string;

export async function createSanitizer(dom: JSDOM): Promise<Sanitizer> {
  // Imported only now: DOMPurify binds to a window when its module loads (mermaid shares it).
  const { default: createDOMPurify } = await import("dompurify");
  const purify = createDOMPurify(dom.window as unknown as Window & typeof globalThis);
  const serializer = new dom.window.XMLSerializer();

  purify.addHook("uponSanitizeElement", (node, data) => {
    if (data.tagName === "style" && node.textContent) node.textContent = cleanCss(node.textContent);
  });
  purify.addHook("afterSanitizeAttributes", (node) => {
    const el = node as Element;
    if (!el.attributes) return;
    const tag = el.tagName.toLowerCase();
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value;
      // mermaid writes xmlns="…xhtml" as a plain attribute on label divs; the serializer declares
      // namespaces itself, and a second xmlns makes the file ill-formed.
      if (name === "xmlns" || name.startsWith("xmlns:")) {
        el.removeAttribute(attr.name);
        continue;
      }
      if (name.startsWith("on")) {
        el.removeAttribute(attr.name);
        continue;
      }
      if (name === "style") {
        el.setAttribute(attr.name, cleanCss(value));
        continue;
      }
      if (isLinkAttr(name)) {
        const v = value.trim().replace(/[\u0000-\u0020]/g, "");
        const keep = v.startsWith("#") || (tag === "a" && SAFE_LINK.test(v));
        if (!keep) el.removeAttribute(attr.name);
        continue;
      }
      if (GEOMETRY.has(name) && /\d\.\d{4}/.test(value)) {
        el.setAttribute(attr.name, value.replace(/(\d\.\d{3})\d+/g, "$1"));
        continue;
      }
      if (/url\s*\(/i.test(value) || /javascript:|data:|@import/i.test(value)) {
        const cleaned = cleanCss(value);
        if (cleaned !== value) el.setAttribute(attr.name, cleaned);
      }
    }
    if (tag === "a" && el.hasAttribute("href")) el.setAttribute("rel", "noopener noreferrer");
  });

  return (svg: string) => {
    const fragment = purify.sanitize(svg, {
      USE_PROFILES: { svg: true, svgFilters: true, html: true },
      ADD_TAGS: ["foreignObject", "style"],
      ADD_ATTR: ["dominant-baseline", "requiredFeatures", "transform-origin"],
      HTML_INTEGRATION_POINTS: { foreignobject: true },
      FORBID_TAGS,
      FORBID_ATTR: ["ping", "srcset", "formaction"],
      RETURN_DOM_FRAGMENT: true,
    }) as unknown as DocumentFragment;
    const root = Array.from(fragment.childNodes).find((n) => n.nodeType === 1 && (n as Element).tagName.toLowerCase() === "svg") as Element | undefined;
    if (!root) throw new Error("sanitizer removed the diagram");
    return serializer.serializeToString(root);
  };
}
