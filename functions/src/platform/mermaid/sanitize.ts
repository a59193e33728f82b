// The second line of defence after mermaid's own strict mode: every SVG leaves through here.
// DOMPurify with the svg + svgFilters + html profiles (foreignObject as an HTML integration
// point, so HTML labels survive), then our own rules: <style> kept but its CSS cleaned, no
// external references of any kind (links included: only in-document `#…` targets survive),
// nothing XML cannot carry. CSS is parsed and allow-listed in css.ts. Serialised as XML so the result is a well-formed standalone .svg file.
import type { JSDOM } from "jsdom";
import { cleanCss as cleanSheet, cleanStyleAttr as cleanStyleDeclarations, type Scope } from "./css.js";
import { canonicaliseIds } from "./ids.js";

const FORBID_TAGS = [
  "script", "iframe", "frame", "frameset", "object", "embed", "applet", "portal", "link", "meta", "base",
  "img", "image", "feImage", "audio", "video", "source", "track", "picture",
  "form", "input", "button", "textarea", "select", "option",
  "animate", "set", "animateMotion", "animateTransform", "animateColor", "discard", "handler", "listener",
];

/**
 * The only `url(…)` that may stay: a reference to something in this document (a marker, gradient,
 * filter), exactly as written, quotes matched. Allow-listed, never rewritten: rewriting an
 * unterminated or oddly quoted `url(` is how an external one slips through.
 */
const LOCAL_URL = /url\(\s*(['"]?)#[A-Za-z0-9_.:-]+\1\s*\)/gi;
/** What may load something from elsewhere or run something, once local url()s are taken out. */
const FORBIDDEN_CSS = /url\s*\(|image\s*\(|image-set\s*\(|cross-fade\s*\(|element\s*\(|src\s*\(|@import|expression\s*\(|javascript\s*:|vbscript\s*:|-moz-binding|behavior\s*:/i;

/** Characters XML 1.0 does not allow (C0 controls but tab/LF/CR, U+FFFE/U+FFFF, lone surrogates). */
const NON_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as XML 1.0 can carry it: a standalone .svg with a control character in a label does not open. */
export function xmlChars(text: string): string {
  return text.replace(NON_XML_CHARS, "");
}

function isSafeCss(css: string): boolean {
  return !FORBIDDEN_CSS.test(css.replace(LOCAL_URL, ""));
}

/**
 * A `style` attribute: only allow-listed properties with harmless values (core/css.ts); on the
 * root <svg> only paint and text. The pattern check after it is a belt to the parser's braces.
 */
export function cleanStyleAttr(css: string, scope: Scope = "inner"): string {
  const out = cleanStyleDeclarations(xmlChars(css), scope);
  return isSafeCss(out) ? out : "";
}

/** A `<style>` sheet: rules that stay inside the diagram `scopeId`, allow-listed (core/css.ts). */
export function cleanCss(css: string, scopeId?: string): string {
  const out = cleanSheet(xmlChars(css), scopeId);
  // Belt and braces: if the parser was ever fooled, nothing is better than a leak.
  return isSafeCss(out) ? out : "";
}

/** The id of the outermost <svg> around `node`: the diagram a `<style>` sheet must stay inside. */
function diagramId(node: Node): string | undefined {
  let svg: Element | undefined;
  for (let cur = node.parentElement; cur; cur = cur.parentElement) if (cur.localName.toLowerCase() === "svg") svg = cur;
  return svg?.getAttribute("id") ?? undefined;
}

// Coordinates with 15 significant digits only cost bytes: three decimals are sub-pixel.
const GEOMETRY = new Set(["d", "points", "transform", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width", "height", "viewbox"]);

function isLinkAttr(name: string): boolean {
  return name === "href" || name === "xlink:href" || name === "src" || name === "action" || name === "formaction" || name === "poster" || name === "background";
}

// XML 1.0 (5th edition) Name: an HTML parser accepts attribute names such as `data-x;y` that no
// XML parser does, and mermaid's HTML labels pass through one.
const NAME_START = ":A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}";
const XML_NAME = new RegExp(`^[${NAME_START}][${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`, "u");

/** True when `name` can be written as an XML attribute name (prefixed names only with a namespace). */
export function isXmlAttrName(name: string, namespaceURI: string | null): boolean {
  if (!XML_NAME.test(name)) return false;
  // "a:b" without a namespace serialises with an undeclared prefix: not well-formed.
  return !name.includes(":") || !!namespaceURI;
}

/** The sanitized <svg> element (detached); serialise it with XMLSerializer. */
export type Sanitizer = (svg: string) => Element;

export async function createSanitizer(dom: JSDOM): Promise<Sanitizer> {
  // Imported only now: DOMPurify binds to a window when its module loads (mermaid shares it).
  const { default: createDOMPurify } = await import("dompurify");
  const purify = createDOMPurify(dom.window as unknown as Window & typeof globalThis);

  purify.addHook("uponSanitizeElement", (node, data) => {
    // A sheet outside any <svg> has no diagram to stay inside: nothing of it is kept.
    if (data.tagName === "style" && node.textContent) node.textContent = cleanCss(node.textContent, diagramId(node) ?? "\u0000none");
  });
  purify.addHook("afterSanitizeAttributes", (node) => {
    const el = node as Element;
    if (!el.attributes) return;
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      // mermaid writes xmlns="…xhtml" as a plain attribute on label divs; the serializer declares
      // namespaces itself, and a second xmlns makes the file ill-formed. Names XML cannot spell go too.
      if (name === "xmlns" || name.startsWith("xmlns:") || !isXmlAttrName(attr.name, attr.namespaceURI) || name.startsWith("on")) {
        el.removeAttributeNode(attr);
        continue;
      }
      // Invalid characters first, so that removing them later can never assemble a "url(" or
      // "javascript:" that the checks below did not see.
      const value = xmlChars(attr.value);
      if (name === "style") {
        const css = cleanStyleAttr(value, el.localName.toLowerCase() === "svg" ? "root" : "inner");
        if (css.trim()) el.setAttribute(attr.name, css);
        else el.removeAttributeNode(attr);
        continue;
      }
      if (isLinkAttr(name)) {
        // Only in-document targets: the issue asks for no external URLs at all, links included
        // (mermaid's `click … href "https://…"` keeps its label, loses the link).
        const v = value.trim().replace(/[\u0000-\u0020]/g, "");
        if (!v.startsWith("#")) el.removeAttributeNode(attr);
        else if (value !== attr.value) attr.value = value;
        continue;
      }
      if (GEOMETRY.has(name) && /\d\.\d{4}/.test(value)) {
        attr.value = value.replace(/(\d\.\d{3})\d+/g, "$1");
        continue;
      }
      // Presentation attributes (fill, marker-end, filter, clip-path, …) may point at #ids only.
      if (!isSafeCss(value) || /^\s*(?:javascript|vbscript|data)\s*:/i.test(value)) {
        el.removeAttributeNode(attr);
        continue;
      }
      if (value !== attr.value) attr.value = value;
    }
  });

  return (svg: string) => {
    const fragment = purify.sanitize(xmlChars(svg), {
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
    // Text that XML cannot carry (a control character in a label, or one decoded from "&#1;").
    // Attributes and <style> were cleaned in the hooks; this is plain text, so removing is safe.
    const walker = root.ownerDocument!.createTreeWalker(root, 0x4 | 0x8 | 0x80 /* text, CDATA, comment */);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.nodeValue ?? "";
      const clean = xmlChars(text);
      if (clean !== text) n.nodeValue = clean;
    }
    // Ids numbered by mermaid's process-wide counters, renumbered by first appearance (with every
    // reference to them), so the same diagram gives the same bytes however warm the worker is.
    canonicaliseIds(root);
    return root;
  };
}
