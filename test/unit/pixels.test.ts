// Every image decode is bounded in pixels (core/pixels.ts): a small file claiming a huge canvas is
// refused with a sentence (figma exports) or an error, never decoded into gigabytes.
import sharp from "sharp";
import { beforeAll, expect, test } from "vitest";
import { MAX_DECODE_PIXELS } from "../../functions/src/core/pixels.js";
import { fitExportForModel } from "../../functions/src/domains/figma/image.js";
import { fitImageForModel } from "../../functions/src/mcp/content.js";
import { modelImageContent } from "../../functions/src/domains/fotos/image.js";
import { redact } from "../../functions/src/domains/fotos/pii/redact.js";

let bomb: Buffer;
beforeAll(async () => {
  // 9000×6000 (54 Mpx) of one colour: a few hundred KB as PNG, 216 MB once decoded.
  bomb = await sharp({ create: { width: 9000, height: 6000, channels: 3, background: "#ffffff" } }).png({ compressionLevel: 9 }).toBuffer();
  expect(9000 * 6000).toBeGreaterThan(MAX_DECODE_PIXELS);
}, 120_000);

test("a figma export over the bound is refused with what to do, not decoded", async () => {
  await expect(fitExportForModel({ kind: "image", mimeType: "image/png", base64: bomb.toString("base64") })).rejects.toThrow(
    "The exported image is 9000×6000 pixels; at most 50 megapixels are accepted: export a smaller node or at a lower scale",
  );
});

test("fitting for the model, fotos' image copy and redaction refuse to decode it", async () => {
  await expect(fitImageForModel(bomb)).rejects.toThrow(/pixel limit/i);
  await expect(modelImageContent(bomb)).rejects.toThrow(/pixel limit/i);
  await expect(redact(bomb, [{ type: "email", x: 1, y: 1, w: 10, h: 10 }] as never)).rejects.toThrow(/pixel limit/i);
});

test("an image within the bound is still fitted", async () => {
  const ok = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#336699" } }).png().toBuffer();
  const fitted = (await fitExportForModel({ kind: "image", mimeType: "image/png", base64: ok.toString("base64") })) as { width: number; downscaled: boolean };
  expect(fitted).toMatchObject({ width: 1568, downscaled: true });
});
