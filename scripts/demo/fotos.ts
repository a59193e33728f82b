// Fotos demo data: two screenshots for Alice, so list_screenshots, ocr_screenshot, annotate and
// auto_redact_pii have something to work on before a desktop agent is paired. They are drawn
// here (SVG → PNG with the fonts shipped in functions/assets), not captured: a checkout form
// with personal data to redact, and a small dashboard. Stored through the domain's own store
// (Storage + Firestore, 7-day retention like any screenshot). Idempotent: skipped when Alice
// already has screenshots.
import sharp from "sharp";
import { ensureFonts, FONT_FAMILY } from "../../functions/src/domains/fotos/annotate/fonts.js";
import { listScreenshots, saveScreenshot } from "../../functions/src/domains/fotos/store.js";
import type { DemoContext } from "./context.js";

const text = (x: number, y: number, size: number, value: string, extra = "") =>
  `<text x="${x}" y="${y}" font-family="${FONT_FAMILY}" font-size="${size}" ${extra.includes("fill=") ? "" : 'fill="#1f2937"'} ${extra}>${value}</text>`;

export function checkoutForm(): string {
  const line = (y: number, label: string, amount: string, extra = "") => text(800, y, 22, label, extra) + text(1180, y, 22, amount, `text-anchor="end" ${extra}`);
  const field = (y: number, label: string, value: string) =>
    text(80, y, 22, label, 'font-weight="bold"') + `<rect x="80" y="${y + 14}" width="640" height="48" rx="6" fill="#fff" stroke="#9ca3af"/>` + text(96, y + 46, 24, value);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800">
  <rect width="1280" height="800" fill="#f3f4f6"/>
  <rect width="1280" height="64" fill="#1e3a8a"/>${text(32, 42, 26, "Acme Store — Checkout", 'fill="#ffffff" font-weight="bold"')}
  ${text(80, 130, 34, "Shipping and payment", 'font-weight="bold"')}
  ${field(170, "Full name", "Alice Example")}
  ${field(270, "Email", "alice.example@example.com")}
  ${field(370, "Phone", "+1 415 555 0132")}
  ${field(470, "Card number", "4111 1111 1111 1111")}
  <rect x="80" y="600" width="240" height="60" rx="8" fill="#16a34a"/>${text(120, 640, 26, "Place order", 'fill="#ffffff" font-weight="bold"')}
  ${text(800, 200, 24, "Order summary", 'font-weight="bold"')}${line(250, "2 × Ceramic mug", "$24.00")}${line(290, "Shipping", "$5.00")}${line(340, "Total", "$29.00", 'font-weight="bold"')}
</svg>`;
}

export function dashboard(): string {
  const bars = [120, 180, 150, 240, 210, 300, 280]
    .map((h, i) => `<rect x="${120 + i * 90}" y="${620 - h}" width="56" height="${h}" fill="#2563eb"/>` + text(122 + i * 90, 650, 20, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][i]!))
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800">
  <rect width="1280" height="800" fill="#ffffff"/>
  ${text(80, 90, 36, "Weekly signups", 'font-weight="bold"')}${text(80, 130, 22, "Up 18% on last week. Error rate 0.4%.")}
  <line x1="100" y1="620" x2="760" y2="620" stroke="#6b7280" stroke-width="2"/>${bars}
  ${text(880, 220, 28, "Alerts", 'font-weight="bold"')}${text(880, 270, 22, "Disk usage 91% on db-2")}${text(880, 310, 22, "Latency p95 420 ms")}
</svg>`;
}

export async function seed(ctx: DemoContext): Promise<void> {
  const uid = ctx.users.alice.uid;
  if ((await listScreenshots(uid, 1)).length) {
    ctx.log("fotos: alice already has screenshots; kept");
    return;
  }
  ensureFonts();
  const shots = [
    { svg: dashboard(), windowTitle: "Signups dashboard — Browser" },
    { svg: checkoutForm(), windowTitle: "Acme Store — Checkout — Browser" },
  ];
  for (const shot of shots) {
    const png = await sharp(Buffer.from(shot.svg)).png().toBuffer();
    await saveScreenshot(uid, png, { mode: "window", windowTitle: shot.windowTitle });
  }
  ctx.log(`fotos: ${shots.length} screenshots for alice (a checkout form to redact, a dashboard)`);
}
