// The result size guard every domain's tools go through (unit level: no emulator needed).
import sharp from "sharp";
import { expect, test } from "vitest";
import { guardResultSize, MAX_IMAGE_SIDE, truncateText } from "../../functions/src/mcp/content.js";

test("text over the budget is cut with an explicit marker that says how much was shown", async () => {
  const result = await guardResultSize({ content: [{ type: "text", text: "a".repeat(150) }, { type: "text", text: "b".repeat(100) }] }, 200);
  const [first, second] = result.content as { text: string }[];
  expect(first!.text).toBe("a".repeat(150));
  expect(second!.text.startsWith("b".repeat(50) + "\n\n[truncated] Showing 50 of 100 characters")).toBe(true);
});

test("a cursor turns the marker into an instruction to continue", () => {
  expect(truncateText("x".repeat(20), 10, "abc").text).toContain('Call again with cursor "abc" for the rest.');
  expect(truncateText("short", 10)).toEqual({ text: "short", truncated: false });
});

test("an image larger than clients accept is downscaled; a small one passes untouched", async () => {
  const big = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: "#336699" } }).png().toBuffer();
  const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#336699" } }).png().toBuffer();
  const result = await guardResultSize({
    content: [
      { type: "image", data: big.toString("base64"), mimeType: "image/png" },
      { type: "image", data: small.toString("base64"), mimeType: "image/png" },
    ],
  });
  const [fitted, untouched] = result.content as { data: string }[];
  const meta = await sharp(Buffer.from(fitted!.data, "base64")).metadata();
  expect(meta.width).toBe(MAX_IMAGE_SIDE);
  expect(meta.height).toBe(Math.round((1000 * MAX_IMAGE_SIDE) / 4000));
  expect(untouched!.data).toBe(small.toString("base64"));
});

test("a result larger than clients accept as a whole is refused, not cut", async () => {
  const huge = { content: [{ type: "text" as const, text: "ok" }], structuredContent: { rows: "x".repeat(1_000_000) } };
  await expect(guardResultSize(huge)).rejects.toMatchObject({ kind: "too_large", message: expect.stringMatching(/^The result is \d+ KB, more than MCP clients accept/) });
});

test("a result's size is bounded soundly without serialising it: text that JSON escapes sixfold still counts as such", async () => {
  // 100,000 control characters (each `\u0001` on the wire: 600 KB) beside a 400 KB image: over 900 KB.
  const png = Buffer.alloc(300_000);
  png.writeUInt32BE(10, 16);
  png.writeUInt32BE(10, 20);
  const escaped = { type: "text" as const, text: "\u0001".repeat(100_000) };
  const image = { type: "image" as const, data: png.toString("base64"), mimeType: "image/png" };
  const data = { ok: true };
  await expect(guardResultSize({ content: [escaped, image], structuredContent: data }, undefined, JSON.stringify(data).length)).rejects.toMatchObject({ kind: "too_large" });
  // The same parts in plain letters fit (700 KB) and pass as they are.
  const plain = { type: "text" as const, text: "a".repeat(100_000) };
  const result = await guardResultSize({ content: [plain, image], structuredContent: data }, undefined, JSON.stringify(data).length);
  expect(result.content).toEqual([plain, image]);
});
