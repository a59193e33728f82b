// Figma links as people paste them: https://www.figma.com/design/<fileKey>/<name>?node-id=12-345
// (also /file/, /board/ for FigJam, /proto/, /slides/, and branches: /design/<key>/branch/<branchKey>/…).
// A link names a file (its key and the slug of its name) and, with node-id, a layer. Any argument
// that takes a node id takes a link too; the link's file picks the session (sessions.ts).
import { invalidInput } from "../../core/errors.js";

export interface FigmaLink {
  /** The file's key (a branch's own key for branch links). */
  fileKey: string;
  /** The file name as the link spells it ("Landing-page"), "" when the link has none. */
  fileSlug: string;
  /** The layer, as the plugin API writes ids ("12:345"), when the link has a node-id. */
  nodeId?: string;
  url: string;
}

const LINK = /^https:\/\/(?:www\.)?figma\.com\/(?:design|file|board|proto|slides)\/([A-Za-z0-9]{10,128})(?:\/branch\/([A-Za-z0-9]{10,128}))?(?:\/([^/?#]*))?/;
export const NODE_ID = /^I?\d+:\d+(;\d+:\d+)*$/;

/** True when the text looks like a Figma link (what the argument schemas let through). */
export const looksLikeLink = (value: string) => LINK.test(value.trim());

/** Parses a Figma link; undefined when the text is not one. A link with a malformed node-id is refused. */
export function parseFigmaLink(value: string): FigmaLink | undefined {
  const text = value.trim();
  const match = LINK.exec(text);
  if (!match) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const raw = url.searchParams.get("node-id");
  let nodeId: string | undefined;
  if (raw) {
    // URLs write "12:345" as "12-345" (instance sublayers "I12-34;5-6").
    nodeId = raw.replaceAll("-", ":");
    if (!NODE_ID.test(nodeId)) throw invalidInput(`The link's node-id ${JSON.stringify(raw)} is not a Figma layer id: copy the layer's link again (right-click → Copy/Paste as → Copy link to selection)`);
  }
  let slug = "";
  try {
    slug = decodeURIComponent(match[3] ?? "");
  } catch {
    slug = match[3] ?? "";
  }
  return { fileKey: match[2] ?? match[1]!, fileSlug: slug, nodeId, url: text };
}

/** A file name as Figma slugs it in links, compared loosely (case, punctuation and spaces ignored). */
export const slugKey = (name: string) =>
  name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");

/** Does an open file (its key when the plugin knows it, else its name) match the link? */
export function linkMatchesFile(link: FigmaLink, file: { fileKey: string; fileName: string }): boolean {
  if (file.fileKey) return file.fileKey === link.fileKey;
  return link.fileSlug !== "" && slugKey(link.fileSlug) === slugKey(file.fileName);
}

/** How the link's file is named in sentences: its name from the link, and its key. */
export const linkedFile = (link: FigmaLink) => `${link.fileSlug ? `${JSON.stringify(link.fileSlug.replaceAll("-", " "))} ` : ""}(file key ${link.fileKey})`;

/** An argument name that holds node ids (nodeId, parentId, componentId, startNodeId, nodeIds…). */
const NODE_ARG = /(?:^|[a-z])(?:Id|Ids|nodeId|nodeIds)$/;

/**
 * Replaces every Figma link among the node-id arguments (at any depth) by its node id, and returns
 * the one file the links name. Links to two different files in one call are refused.
 */
export function resolveLinks(args: Record<string, unknown>): { args: Record<string, unknown>; link?: FigmaLink } {
  let first: FigmaLink | undefined;
  const take = (value: string): string => {
    const link = parseFigmaLink(value);
    if (!link) return value;
    if (first && first.fileKey !== link.fileKey) throw invalidInput(`The links name two different Figma files (${linkedFile(first)} and ${linkedFile(link)}): one call works in one file`);
    first ??= link;
    if (!link.nodeId) throw invalidInput(`The link ${link.url} names a file but no layer: copy the layer's link (right-click → Copy/Paste as → Copy link to selection), or pass its node id`);
    return link.nodeId;
  };
  const visit = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === "string") return key && NODE_ARG.test(key) ? take(value) : value;
    if (Array.isArray(value)) return value.map((v) => visit(v, key));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v, k)]));
    return value;
  };
  const out = visit(args, undefined) as Record<string, unknown>;
  return { args: out, link: first };
}
