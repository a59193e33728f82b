// Production OCR: Cloud Vision documentTextDetection through @google-cloud/vision (REST
// fallback transport, so a local HTTP server can stand in for it). Lines are rebuilt from the
// symbols' detected breaks; a word's text is the concatenation of its symbols.
// VISION_API_ENDPOINT (e.g. http://127.0.0.1:9000) points the client elsewhere; a plain-http
// endpoint is a local stand-in and gets a fixed token instead of Application Default Credentials.
import vision from "@google-cloud/vision";
import { OAuth2Client } from "google-auth-library";
import { unavailable } from "../mcp/errors.js";
import { joinLines, type OcrEngine, type OcrLanguage, type OcrRegion, type OcrResult } from "./ocr.js";

const HINTS: Record<OcrLanguage, string> = { eng: "en", deu: "de", jpn: "ja" };
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
    try {
      const [response] = await this.client.documentTextDetection({
        image: { content: png.toString("base64") },
        imageContext: { languageHints: [HINTS[language]] },
      });
      if (response.error?.message) throw new Error(response.error.message);
      annotation = response.fullTextAnnotation as Annotation | null | undefined;
    } catch (err) {
      console.error("Cloud Vision OCR failed:", (err as Error).message);
      throw unavailable("Text recognition (Cloud Vision) failed; try again in a moment");
    }
    return fromAnnotation(annotation, language);
  }
}

/** Words and lines from Vision's fullTextAnnotation. */
export function fromAnnotation(annotation: Annotation | null | undefined, language: OcrLanguage): OcrResult {
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
            regions.push({ text, ...box(word.boundingBox?.vertices ?? []), confidence: Math.round((word.confidence ?? 0) * 1000) / 1000 });
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

function box(vertices: Vertex[]): { x: number; y: number; w: number; h: number } {
  const xs = vertices.map((v) => v.x ?? 0);
  const ys = vertices.map((v) => v.y ?? 0);
  if (!xs.length) return { x: 0, y: 0, w: 0, h: 0 };
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}
