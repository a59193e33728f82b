// The design view (ui://figma/design) for get_design_context: the HTML + CSS form previewed beside
// its code. The preview lives in a shadow root (the design's stylesheet stays inside it); markup is
// taken as inert data: nothing in it runs. Tailwind's stylesheet is not bundled (no network): that
// form shows its code only; the JSON form shows the layer tree.
import "../../../mcp/views/base.css";
import "./design.css";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { connectView, el, resultText, showError } from "../../../mcp/views/app.js";

interface Design {
  fileName?: string;
  format?: string;
  html?: string;
  css?: string;
  truncated?: boolean;
  nodes?: unknown;
  [key: string]: unknown;
}
interface Layer {
  id?: string;
  name?: string;
  type?: string;
  children?: Layer[];
}

const app = document.getElementById("app")!;

/** The design's markup as inert nodes: no scripts, frames, handlers or script URLs. */
function inertMarkup(html: string): DocumentFragment {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  doc.querySelectorAll("script, iframe, object, embed, link, meta, base, form").forEach((n) => n.remove());
  for (const node of Array.from(doc.body.querySelectorAll("*"))) {
    for (const attr of Array.from(node.attributes)) {
      if (/^on/i.test(attr.name) || /^\s*javascript:/i.test(attr.value)) node.removeAttribute(attr.name);
    }
    // Assets (vectors, image fills) are files the developer exports (export_node_as_image): the
    // preview shows where each goes rather than asking for a file that is not there.
    const src = node.getAttribute("src");
    if (src !== null && !src.startsWith("data:")) {
      node.removeAttribute("src");
      node.removeAttribute("srcset");
      node.setAttribute("data-asset", src);
      node.setAttribute("title", `${src}: export it with export_node_as_image`);
    }
  }
  const fragment = document.createDocumentFragment();
  fragment.append(...Array.from(doc.body.childNodes).map((n) => document.importNode(n, true)));
  return fragment;
}

function code(label: string, text: string): HTMLElement {
  return el("details", { class: "code", open: "" }, el("summary", {}, label), el("pre", { tabindex: "0" }, text));
}

function tree(layer: Layer): HTMLElement {
  const item = el("li", {}, `${layer.name ?? layer.id ?? "layer"} `, el("span", { class: "muted" }, layer.type ?? ""));
  if (layer.children?.length) item.append(el("ul", {}, ...layer.children.map(tree)));
  return item;
}

function show(result: CallToolResult) {
  const data = result.structuredContent as Design | undefined;
  if (result.isError || !data) return showError(app, "No design to show", resultText(result) || undefined);
  const header = el("div", { class: "toolbar" }, el("strong", {}, data.fileName ?? "Figma"), ...(data.truncated ? [el("span", { class: "status" }, "Part of the layers: the answer was truncated")] : []));
  if (typeof data.html === "string") {
    const canvas = el("div", {});
    const stage = el("div", { class: "preview", "aria-label": "Preview" }, canvas);
    const shadow = canvas.attachShadow({ mode: "open" });
    // The design's variables sit on :root; inside the shadow root that is the host element.
    const css = (data.css ?? "").replace(/:root\b/g, ":host").replace(/url\((?!\s*["']?data:)[^)]*\)/g, "none"); // no files to load
    const style = el("style", {}, `:host{display:block;all:initial}[data-asset]{outline:1px dashed #8888;background:#8882}${css}`);
    const tailwind = /class="[^"]*\b(flex|w-\[|p-\[|bg-\[)/.test(data.html) && !data.css?.includes("{");
    shadow.append(style, inertMarkup(data.html));
    app.replaceChildren(
      header,
      el(
        "div",
        { class: "split" },
        el("section", { "aria-label": "Preview" }, stage, ...(tailwind ? [el("p", { class: "muted" }, "Tailwind classes need Tailwind's stylesheet, which a view does not load: compare with the code.")] : [])),
        el("section", { class: "codes", "aria-label": "Code" }, code("HTML", data.html), ...(data.css ? [code("CSS", data.css)] : [])),
      ),
    );
    return;
  }
  const roots = (Array.isArray(data.nodes) ? data.nodes : [data.node ?? data]) as Layer[];
  app.replaceChildren(header, el("p", { class: "muted" }, 'The layer tree. Ask for format "html" to see a preview beside its code.'), el("ul", { class: "tree" }, ...roots.map(tree)));
}

connectView("figma-design", { result: show, cancelled: () => showError(app, "No design to show", "The tool call was cancelled.") }).catch((err: Error) =>
  showError(app, "This view could not reach its host", err.message),
);
