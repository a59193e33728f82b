// Where standalone `fotos-agent mcp` keeps screenshots: a private temporary folder
// ($FOTOS_MCP_DIR, else <tmp>/fotos-mcp-<user>), one PNG + one JSON of metadata per screenshot and
// the OCR results beside them. It is capped by age (FOTOS_MCP_MAX_AGE_HOURS, default 24) and by
// total size (FOTOS_MCP_MAX_MB, default 500): every save first deletes what expired, then the
// oldest screenshots until the new one fits. Files, not memory: every call reads what it needs.
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { envNumber, type OcrLanguage, type OcrResult, MAX_LIST, MAX_PNG_BYTES, pngSize, SCREENSHOT_ID, screenshotNotFound, type NewScreenshot, type ScreenshotMeta, ToolError } from "../../../functions/src/domains/fotos/published.js";

const MAX_AGE_MS = envNumber("FOTOS_MCP_MAX_AGE_HOURS", 24, { min: 0.001 }) * 3_600_000;
const MAX_BYTES = envNumber("FOTOS_MCP_MAX_MB", 500, { min: 0.0001 }) * 1024 * 1024;

export function localStoreDir(): string {
  const user = (() => {
    try {
      return userInfo().username.replace(/[^A-Za-z0-9_-]/g, "") || String(process.getuid?.() ?? "user");
    } catch {
      return "user";
    }
  })();
  return process.env.FOTOS_MCP_DIR || join(tmpdir(), `fotos-mcp-${user}`);
}

export class LocalStore {
  constructor(readonly dir = localStoreDir()) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  private png = (id: string) => join(this.dir, `${id}.png`);
  private json = (id: string) => join(this.dir, `${id}.json`);
  private ocrFile = (id: string, language: string) => join(this.dir, `${id}.ocr-${language}.json`);

  async save(png: Buffer, meta: NewScreenshot): Promise<ScreenshotMeta> {
    if (png.length > MAX_PNG_BYTES) throw new ToolError("too_large", `The image is ${(png.length / 1048576).toFixed(1)} MB; at most 25 MB is accepted`);
    const { width, height } = pngSize(png);
    await this.prune(png.length);
    const now = Date.now();
    const saved: ScreenshotMeta = {
      id: randomUUID(),
      width,
      height,
      createdAt: new Date(now).toISOString(),
      mode: meta.mode,
      ...(meta.monitorIndex !== undefined ? { monitorIndex: meta.monitorIndex } : {}),
      ...(meta.windowTitle !== undefined ? { windowTitle: meta.windowTitle } : {}),
      ...(meta.sourceId !== undefined ? { sourceId: meta.sourceId } : {}),
      ...(meta.redaction ? { redaction: meta.redaction } : {}),
      bytes: png.length,
      expiresAt: new Date(now + MAX_AGE_MS).toISOString(),
    };
    // Image first: metadata never points at nothing.
    await writeFile(this.png(saved.id), png, { mode: 0o600 });
    await writeFile(this.json(saved.id), JSON.stringify(saved), { mode: 0o600 });
    return saved;
  }

  async meta(id: string): Promise<ScreenshotMeta> {
    if (!SCREENSHOT_ID.test(id)) throw screenshotNotFound(id);
    const meta = await readFile(this.json(id), "utf8").then((t) => JSON.parse(t) as ScreenshotMeta, () => undefined);
    if (!meta || Date.parse(meta.expiresAt) <= Date.now()) throw screenshotNotFound(id);
    return meta;
  }

  async load(id: string): Promise<{ meta: ScreenshotMeta; png: Buffer }> {
    const meta = await this.meta(id);
    const png = await readFile(this.png(id)).catch(() => undefined);
    if (!png) throw screenshotNotFound(id);
    return { meta, png };
  }

  async list(limit: number): Promise<ScreenshotMeta[]> {
    const n = Math.max(0, Math.min(Math.floor(limit), MAX_LIST));
    const all = await this.all();
    return all.filter((m) => Date.parse(m.expiresAt) > Date.now()).slice(0, n);
  }

  async cachedOcr(id: string, language?: OcrLanguage): Promise<OcrResult | undefined> {
    const files = language ? [this.ocrFile(id, language)] : this.ocrFiles(id);
    for (const file of files) {
      const result = await readFile(file, "utf8").then((t) => JSON.parse(t) as OcrResult, () => undefined);
      if (result) return result;
    }
    return undefined;
  }

  async saveOcr(id: string, result: OcrResult): Promise<void> {
    await writeFile(this.ocrFile(id, result.language), JSON.stringify(result), { mode: 0o600 });
  }

  /** OCR files of a screenshot, newest first. */
  private ocrFiles(id: string): string[] {
    return readdirSync(this.dir)
      .filter((f) => f.startsWith(`${id}.ocr-`))
      .map((f) => join(this.dir, f))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  }

  /** Every screenshot's metadata, newest first. */
  private async all(): Promise<ScreenshotMeta[]> {
    const ids = readdirSync(this.dir)
      .filter((f) => /^[A-Za-z0-9-]+\.json$/.test(f))
      .map((f) => f.slice(0, -5));
    const metas = await Promise.all(ids.map((id) => readFile(this.json(id), "utf8").then((t) => JSON.parse(t) as ScreenshotMeta, () => undefined)));
    return metas.filter((m): m is ScreenshotMeta => !!m).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  private async remove(id: string): Promise<void> {
    await Promise.all([this.json(id), this.png(id), ...this.ocrFiles(id)].map((f) => rm(f, { force: true })));
  }

  /** Deletes expired screenshots, then the oldest until `incoming` more bytes fit under the cap. */
  private async prune(incoming: number): Promise<void> {
    const all = await this.all();
    let total = 0;
    const keep: ScreenshotMeta[] = [];
    for (const m of all) {
      if (Date.parse(m.expiresAt) <= Date.now()) await this.remove(m.id);
      else keep.push(m);
    }
    for (const m of keep) total += m.bytes;
    for (let i = keep.length - 1; i >= 0 && total + incoming > MAX_BYTES; i--) {
      await this.remove(keep[i]!.id);
      total -= keep[i]!.bytes;
    }
  }
}
