// Production OCR: Cloud Vision documentTextDetection through @google-cloud/vision (REST
// fallback transport, so a local HTTP server can stand in for it). Lines are rebuilt from the
// symbols' detected breaks; a word's text is the concatenation of its symbols.
// VISION_API_ENDPOINT (e.g. http://127.0.0.1:9000) points the client elsewhere; a plain-http
// endpoint is a local stand-in and gets a fixed token instead of Application Default Credentials.
import vision from "@google-cloud/vision";
import { OAuth2Client } from "google-auth-library";
import { ToolError, unavailable } from "../core/errors.js";
import { BUDGETS, callDependency } from "./deadline.js";
import { joinLines, type OcrEngine, type OcrLanguage, type OcrRegion, type OcrResult } from "./ocr-result.js";
import { DECODE_LIMIT } from "../core/pixels.js";

const HINTS: Record<OcrLanguage, string> = { eng: "en", deu: "de", jpn: "ja" };
/**
 * Largest image sent inline: Cloud Vision refuses JSON requests over 10 MB, and base64 adds a
 * third. A bigger screenshot (a 3×4K PNG can reach 25 MB) goes as a JPEG (q 92, same pixels), or
 * downscaled if that is still too big; boxes are scaled back to the original's pixels.
 */
export const VISION_MAX_CONTENT_BYTES = 7_000_000;
/** Break types that end a line (Vision's BreakType enum, by name or number). */
const LINE_ENDS = new Set(["EOL_SURE_SPACE", "LINE_BREAK", "HYPHEN", 3, 4, 5]);

interface Vertex { x?: number | null; y?: number | null }
interface Symbol { text?: string | null; property?: { detectedBreak?: { type?: string | number | null } | null } | null }
interface Word { symbols?: Symbol[] | null; confidence?: number | null; boundingBox?: { vertices?: Vertex[] | null } | null }
interface Annotation { pages?: { blocks?: { paragraphs?: { words?: Word[] | null }[] | null }[] | null }[] | null }

export interface VisionOcrOptions {
  /** Base URL of the API (default: VISION_API_ENDPOINT, else Google's). */
  endpoint?: string;
  /** Credentials (default: Application Default Credentials; a fixed token for http endpoints). */
  authClient?: OAuth2Client;
}

export class VisionOcr implements OcrEngine {
  readonly name = "vision" as const;
  private readonly client: InstanceType<typeof vision.ImageAnnotatorClient>;

  constructor(opts: VisionOcrOptions = {}) {
    const endpoint = opts.endpoint ?? process.env.VISION_API_ENDPOINT;
    const options: Record<string, unknown> = { fallback: true };
    let authClient = opts.authClient;
    if (endpoint) {
      const url = new URL(endpoint);
      options.apiEndpoint = url.hostname;
      options.port = Number(url.port || (url.protocol === "http:" ? 80 : 443));
      options.protocol = url.protocol.replace(":", "");
      if (!authClient && url.protocol === "http:") {
        authClient = new OAuth2Client();
        authClient.setCredentials({ access_token: "local", expiry_date: Date.now() + 365 * 86_400_000 });
      }
    }
    if (authClient) options.authClient = authClient;
    this.client = new vision.ImageAnnotatorClient(options as ConstructorParameters<typeof vision.ImageAnnotatorClient>[0]);
  }

  async recognize(png: Buffer, language: OcrLanguage): Promise<OcrResult> {
    let annotation: Annotation | null | undefined;
    const { content, scale } = await fitForVision(png);
    try {
      const [response] = await callDependency(BUDGETS.vision, () =>
        this.client.documentTextDetection({ image: { content: content.toString("base64") }, imageContext: { languageHints: [HINTS[language]] } }),
      );
      if (response.error?.message) throw new Error(response.error.message);
      annotation = response.fullTextAnnotation as Annotation | null | undefined;
    } catch (err) {
      if (err instanceof ToolError) throw err;
      console.error("Cloud Vision OCR failed:", (err as Error).message);
      throw unavailable("Text recognition (Cloud Vision) failed; try again in a moment");
    }
    return fromAnnotation(annotation, language, scale);
  }
}

/** The image as sent, and the factor its pixels were scaled by (1: the original's). */
async function fitForVision(png: Buffer): Promise<{ content: Buffer; scale: number }> {
  if (png.length <= VISION_MAX_CONTENT_BYTES) return { content: png, scale: 1 };
  const { default: sharp } = await import("sharp");
  const width = (await sharp(png, DECODE_LIMIT).metadata()).width ?? 1;
  for (const scale of [1, 0.75, 0.5, 0.35, 0.25]) {
    const content = await sharp(png, DECODE_LIMIT)
      .resize({ width: Math.max(1, Math.round(width * scale)), kernel: "lanczos3" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 92 })
      .toBuffer();
    if (content.length <= VISION_MAX_CONTENT_BYTES) return { content, scale: Math.max(1, Math.round(width * scale)) / width };
  }
  throw unavailable("The screenshot is too detailed for text recognition even downscaled; crop it (e.g. capture one window) and try again");
}

/** Words and lines from Vision's fullTextAnnotation. */
export function fromAnnotation(annotation: Annotation | null | undefined, language: OcrLanguage, scale = 1): OcrResult {
  const regions: OcrRegion[] = [];
  const lines: number[][] = [];
  for (const page of annotation?.pages ?? []) {
    for (const block of page.blocks ?? []) {
      for (const paragraph of block.paragraphs ?? []) {
        let line: number[] = [];
        for (const word of paragraph.words ?? []) {
          const symbols = word.symbols ?? [];
          const text = symbols.map((s) => s.text ?? "").join("").trim();
          if (text) {
            line.push(regions.length);
            regions.push({ text, ...box(word.boundingBox?.vertices ?? [], scale), confidence: Math.round((word.confidence ?? 0) * 1000) / 1000 });
          }
          const lastBreak = symbols[symbols.length - 1]?.property?.detectedBreak?.type;
          if (lastBreak !== undefined && lastBreak !== null && LINE_ENDS.has(lastBreak) && line.length) {
            lines.push(line);
            line = [];
          }
        }
        if (line.length) lines.push(line);
      }
    }
  }
  return { text: joinLines(regions, lines, language), regions, lines, language, engine: "vision" };
}

function box(vertices: Vertex[], scale: number): { x: number; y: number; w: number; h: number } {
  const xs = vertices.map((v) => v.x ?? 0);
  const ys = vertices.map((v) => v.y ?? 0);
  if (!xs.length) return { x: 0, y: 0, w: 0, h: 0 };
  // Back to the original's pixels, rounded outwards (a redaction box must cover the whole word).
  const x = Math.floor(Math.min(...xs) / scale);
  const y = Math.floor(Math.min(...ys) / scale);
  return { x, y, w: Math.ceil(Math.max(...xs) / scale) - x, h: Math.ceil(Math.max(...ys) / scale) - y };
}
