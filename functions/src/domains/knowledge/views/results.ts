// The results view (ui://knowledge/results) for search_semantic and search_by_metadata: a card per
// chunk (title, author, source, date, the matched words highlighted, why it matched). "Open" reads
// the whole chunk (kxhub://chunk/{id}) and "Related" calls get_related_chunks, both through the host.
import "../../../mcp/views/base.css";
import "./results.css";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { connectView, el, resultText, showError, type View } from "../../../mcp/views/app.js";
import type { SearchSemanticOutput } from "../tools/search_semantic.js";
import { matchRanges } from "../lexical.js";

type SemanticHit = SearchSemanticOutput["results"][number];
/** A result of either search: search_by_metadata's carry no match, but a category and a date. */
type Hit = Omit<SemanticHit, "tags" | "match" | "full_content"> & Partial<Pick<SemanticHit, "tags" | "match">> & { category?: string; created_at?: string };
interface Results {
  query?: string;
  mode?: string;
  result_count: number;
  results: Hit[];
  no_match?: boolean;
  note?: string;
}

const app = document.getElementById("app")!;
let view: View | undefined;
let input: Record<string, unknown> = {};

/**
 * The text with the matched words in <mark> (text nodes only: nothing is parsed as HTML), found as
 * the search found them: by their stems ("habits" marks "Habit") and "quoted phrases" whole.
 */
function highlighted(text: string, terms: string[]): (Node | string)[] {
  const out: (Node | string)[] = [];
  let at = 0;
  for (const [start, end] of matchRanges(text, terms.map((t) => (t.includes(" ") && !t.startsWith('"') ? `"${t}"` : t)).join(" "))) {
    if (start > at) out.push(text.slice(at, start));
    out.push(el("mark", {}, text.slice(start, end)));
    at = end;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

function why(hit: Hit): string {
  const parts: string[] = [];
  if (hit.match?.terms.length) parts.push(`words: ${hit.match.terms.join(", ")}`);
  const similarity = hit.match?.similarity ?? hit.similarity;
  if (similarity !== undefined) parts.push(`meaning: ${similarity.toFixed(2)} similar`);
  if (hit.match?.semantic_rank) parts.push(`#${hit.match.semantic_rank} by meaning`);
  if (hit.match?.lexical_rank) parts.push(`#${hit.match.lexical_rank} by words`);
  if (!parts.length) {
    const filters = Object.entries(input).filter(([k, v]) => k !== "limit" && v !== undefined).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(", ") : String(v)}`);
    if (filters.length) parts.push(`filters: ${filters.join("; ")}`);
  }
  return parts.join(" · ");
}

function filterTerms(): string[] {
  return ["author", "source", "tags", "category"].flatMap((k) => (Array.isArray(input[k]) ? (input[k] as string[]) : typeof input[k] === "string" ? [input[k] as string] : []));
}

async function openChunk(hit: Hit, slot: HTMLElement, button: HTMLButtonElement) {
  if (!view) return;
  if (slot.dataset.open === "chunk") return void (slot.replaceChildren(), (slot.dataset.open = ""), button.setAttribute("aria-expanded", "false"));
  slot.replaceChildren(el("p", { class: "loading" }, "Reading the chunk…"));
  try {
    const read = await view.readResource(`kxhub://chunk/${encodeURIComponent(hit.chunk_id)}`);
    const content = read.contents[0];
    const text = content && "text" in content ? content.text : "";
    slot.replaceChildren(el("pre", { class: "chunk" }, ...highlighted(text, hit.match?.terms ?? filterTerms())));
    slot.dataset.open = "chunk";
    button.setAttribute("aria-expanded", "true");
  } catch (err) {
    showError(slot, "The chunk could not be read", (err as Error).message);
  }
}

async function related(hit: Hit, slot: HTMLElement) {
  if (!view) return;
  slot.replaceChildren(el("p", { class: "loading" }, "Finding related chunks…"));
  const result = await view.callTool("get_related_chunks", { chunk_id: hit.chunk_id, limit: 5 });
  const data = result.structuredContent as Results | undefined;
  if (result.isError || !data) return showError(slot, "No related chunks", resultText(result) || undefined);
  slot.dataset.open = "related";
  slot.replaceChildren(
    el("h3", {}, `Related to “${hit.title}”`),
    data.results.length ? el("ol", { class: "cards related" }, ...data.results.map((h) => card(h, []))) : el("p", { class: "muted" }, "Nothing related found."),
  );
}

function card(hit: Hit, terms: string[]): HTMLElement {
  const slot = el("div", { class: "more" });
  const open = el("button", { type: "button", "aria-expanded": "false" }, "Open");
  open.addEventListener("click", () => void openChunk(hit, slot, open));
  const rel = el("button", { type: "button" }, "Related");
  rel.addEventListener("click", () => void related(hit, slot));
  const meta = [hit.author, hit.source, hit.created_at?.slice(0, 10), hit.category].filter(Boolean).join(" · ");
  const reason = why(hit);
  return el(
    "li",
    { class: "card", "data-chunk": hit.chunk_id },
    el("h2", { class: "title" }, ...highlighted(hit.title, terms)),
    el("div", { class: "meta muted" }, meta),
    el("p", { class: "snippet" }, ...highlighted(hit.snippet, terms)),
    ...(hit.tags?.length ? [el("div", { class: "tags" }, ...hit.tags.map((t) => el("span", { class: "tag" }, t)))] : []),
    ...(reason ? [el("div", { class: "why muted" }, `Matched on ${reason}`)] : []),
    el("div", { class: "actions" }, open, rel),
    slot,
  );
}

function show(result: CallToolResult) {
  const data = result.structuredContent as Results | undefined;
  if (result.isError || !data) return showError(app, "The search failed", resultText(result) || undefined);
  const heading = data.query !== undefined ? `${data.result_count} result${data.result_count === 1 ? "" : "s"} for “${data.query}”` : `${data.result_count} chunk${data.result_count === 1 ? "" : "s"}`;
  const terms = filterTerms();
  app.replaceChildren(
    el("div", { class: "toolbar" }, el("strong", {}, heading), ...(data.mode ? [el("span", { class: "muted" }, `${data.mode} search`)] : [])),
    ...(data.note ? [el("p", { class: "muted" }, data.note)] : []),
    data.results.length ? el("ol", { class: "cards" }, ...data.results.map((h) => card(h, h.match?.terms ?? terms))) : el("p", { class: "muted" }, "Nothing matched."),
  );
}

connectView("knowledge-results", {
  input: (args) => (input = args),
  result: show,
  cancelled: () => showError(app, "No results to show", "The search was cancelled."),
})
  .then((v) => (view = v))
  .catch((err: Error) => showError(app, "This view could not reach its host", err.message));
