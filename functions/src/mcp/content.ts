// Building tool results, and keeping every result inside what MCP clients accept
// (Claude Code: ~25k tokens per result; Claude: ~1 MB; images <= 8000 px a side and 5 MB).
import type { CallToolResult, ContentBlock, ImageContent } from "@modelcontextprotocol/server";
import { envNumber } from "../core/env.js";
import { tooLarge } from "../core/errors.js";
import { DECODE_LIMIT } from "../core/pixels.js";
import { MAX_IMAGE_SIDE } from "../core/images.js";

export { MAX_IMAGE_SIDE };

/** Characters of text one result may carry before it is cut (about 25k tokens). */
export const MAX_RESULT_TEXT = envNumber("MCP_MAX_RESULT_CHARS", 100_000, { min: 1000 });
/** The most image bytes we hand to a model (the longest side: core/images.ts). */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

/** Bytes of a whole serialized result (text, structuredContent, images) clients accept: Claude
 * rejects results over about 1 MB. A domain pages or refuses long before; this is the last guard. */
export const MAX_RESULT_BYTES = 900_000;

export const TRUNCATION_MARKER = "[truncated]";

/**
 * Cuts `text` to `limit` characters and says so. With a `cursor`, the note tells the caller how
 * to fetch the rest; without one it says what was dropped.
 */
export function truncateText(text: string, limit = MAX_RESULT_TEXT, cursor?: string): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  const note = cursor
    ? `\n\n${TRUNCATION_MARKER} Showing ${limit} of ${text.length} characters. Call again with cursor "${cursor}" for the rest.`
    : `\n\n${TRUNCATION_MARKER} Showing ${limit} of ${text.length} characters; narrow the request to see the rest.`;
  return { text: text.slice(0, limit) + note, truncated: true };
}

/** Text of a JSON value as models read it best: pretty, but compact when large. */
export function jsonText(data: unknown, compact = JSON.stringify(data)): string {
  // A large value (whose pretty form is larger still) is serialised once, compact.
  if (compact.length > PRETTY_UP_TO) return compact;
  const pretty = JSON.stringify(data, null, 2);
  return pretty.length > PRETTY_UP_TO ? compact : pretty;
}

/** Characters up to which a result's JSON text is pretty-printed. */
const PRETTY_UP_TO = 20_000;

export const textContent = (text: string): ContentBlock => ({ type: "text", text });

export function imageContent(data: Buffer, mimeType = "image/png"): ImageContent {
  return { type: "image", data: data.toString("base64"), mimeType };
}

/**
 * Downscales an image that is larger than clients accept (side or bytes). Loads sharp only when
 * needed, so domains without images never pay for it.
 */
export async function fitImageForModel(data: Buffer, mimeType = "image/png"): Promise<ImageContent> {
  const { default: sharp } = await import("sharp");
  const meta = await sharp(data, DECODE_LIMIT).metadata();
  const side = Math.max(meta.width ?? 0, meta.height ?? 0);
  if (side <= MAX_IMAGE_SIDE && data.length <= MAX_IMAGE_BYTES) return imageContent(data, mimeType);
  let out = await sharp(data, DECODE_LIMIT).resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: "inside" }).png().toBuffer();
  if (out.length > MAX_IMAGE_BYTES) {
    out = await sharp(data, DECODE_LIMIT).resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: "inside" }).jpeg({ quality: 80 }).toBuffer();
    return imageContent(out, "image/jpeg");
  }
  return imageContent(out, "image/png");
}

/**
 * Keeps a result inside what clients accept: the text limit over all text blocks (in order), every
 * image within the side and byte limits (downscaled when larger), and the whole result under
 * MAX_RESULT_BYTES (else a too-large error: a cut structuredContent would be worse than none).
 * `structuredBytes`, when the caller has serialised structuredContent already, is its length: a
 * result whose parts certainly fit is then not serialised again to be measured.
 */
export async function guardResultSize(result: CallToolResult, limit = MAX_RESULT_TEXT, structuredBytes?: number): Promise<CallToolResult> {
  let budget = limit;
  const content = await Promise.all(
    result.content.map(async (block) => {
      if (block.type === "image") return fitImageBlock(block);
      if (block.type !== "text") return block;
      const { text } = truncateText(block.text, Math.max(budget, 0));
      budget -= Math.min(block.text.length, budget);
      return { ...block, text };
    }),
  );
  const guarded = { ...result, content };
  if ((bytesAtMost(guarded, structuredBytes) ?? Infinity) <= MAX_RESULT_BYTES) return guarded;
  const bytes = serializedBytes(guarded);
  if (bytes > MAX_RESULT_BYTES) {
    throw tooLarge(
      `The result is ${Math.ceil(bytes / 1024)} KB, more than MCP clients accept (${Math.floor(MAX_RESULT_BYTES / 1024)} KB): ask for less (a smaller limit, a narrower range or a smaller input)`,
    );
  }
  return guarded;
}

async function fitImageBlock(block: ImageContent): Promise<ImageContent> {
  if (!/^image\/(png|jpeg|webp|gif)$/.test(block.mimeType)) return block;
  // Small images are passed as they are without decoding them (a PNG header says its size).
  const bytes = Buffer.from(block.data, "base64");
  if (bytes.length <= MAX_IMAGE_BYTES && block.mimeType === "image/png" && bytes.length > 24) {
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    if (width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE) return block;
  }
  return fitImageForModel(bytes, block.mimeType);
}

/**
 * An upper bound of a result's size on the wire from its parts' lengths, without serialising it;
 * undefined when a part's size is not known that way. A character of text takes at most 6 bytes
 * in JSON (`\u001f`), of already serialised JSON at most 3 (UTF-8); base64 is ASCII.
 */
function bytesAtMost(result: CallToolResult, structuredBytes: number | undefined): number | undefined {
  const { content, structuredContent, isError, ...rest } = result;
  if (Object.keys(rest).length || (structuredContent !== undefined && structuredBytes === undefined)) return undefined;
  let bytes = 64 + (structuredContent === undefined ? 0 : 3 * structuredBytes! + 32) + (isError === undefined ? 0 : 16);
  for (const block of content) {
    const keys = Object.keys(block).length;
    if (block.type === "text" && keys === 2) bytes += 6 * block.text.length + 32;
    else if (block.type === "image" && keys === 3) bytes += block.data.length + 6 * block.mimeType.length + 48;
    else return undefined;
  }
  return bytes;
}

/** Size of a result as it goes on the wire (what MAX_RESULT_BYTES limits). */
export function serializedBytes(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result));
}
