// Screenshots made by the tests: pages with known text rendered to PNG by sharp (librsvg), in
// English, German and Japanese, and a page with planted PII of every type. Fonts come from Debian
// packages, installed here when missing (CI starts from a fresh machine).
import { execFileSync, execSync } from "node:child_process";
import sharp from "sharp";

const PACKAGES: [pkg: string, check: string][] = [
  ["fonts-dejavu-core", "DejaVu Sans"],
  ["fonts-ipafont-gothic", "IPAGothic"],
];

function hasFont(family: string): boolean {
  try {
    return execFileSync("fc-list", [`${family}`], { encoding: "utf8" }).trim().length > 0;
  } catch {
    return false;
  }
}

/** Installs the fonts the fixtures render with (apt-get, waiting for another install's lock). */
export function ensureTestFonts(): void {
  const missing = PACKAGES.filter(([, family]) => !hasFont(family)).map(([pkg]) => pkg);
  if (!missing.length) return;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = "apt-get -o DPkg::Lock::Timeout=600";
  execSync(`(${apt} install -y -qq ${missing.join(" ")} || (${apt} update -qq && ${apt} install -y -qq ${missing.join(" ")})) >/dev/null 2>&1`, { env, stdio: "inherit" });
  execSync("fc-cache -f >/dev/null 2>&1 || true");
}

export interface TextLine {
  text: string;
  x: number;
  y: number;
  size?: number;
  font?: string;
  color?: string;
  weight?: "normal" | "bold";
}

export interface Page {
  width?: number;
  height?: number;
  background?: string;
  /** Extra SVG drawn before the text (panels, toolbars). */
  decor?: string;
  lines: TextLine[];
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export async function renderPage(page: Page): Promise<Buffer> {
  const width = page.width ?? 1280;
  const height = page.height ?? 800;
  const text = page.lines
    .map(
      (l) =>
        `<text x="${l.x}" y="${l.y}" font-family="${l.font ?? "DejaVu Sans"}" font-size="${l.size ?? 16}" font-weight="${l.weight ?? "normal"}" fill="${l.color ?? "#1f2328"}" xml:space="preserve">${esc(l.text)}</text>`,
    )
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${page.background ?? "#ffffff"}"/>${page.decor ?? ""}${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A window-like frame: title bar, sidebar, a dark code panel (text goes on top). */
export const WINDOW_DECOR = (width: number, height: number) =>
  `<rect x="0" y="0" width="${width}" height="36" fill="#e6e8eb"/><circle cx="18" cy="18" r="6" fill="#ff5f57"/><circle cx="38" cy="18" r="6" fill="#febc2e"/><circle cx="58" cy="18" r="6" fill="#28c840"/>` +
  `<rect x="0" y="36" width="220" height="${height - 36}" fill="#f6f8fa"/><line x1="220" y1="36" x2="220" y2="${height}" stroke="#d0d7de"/>`;

export const ENGLISH = [
  "The quarterly report is ready for review.",
  "Please restart the build server before Friday.",
  "Invoices older than ninety days are archived automatically.",
  "Click Save to keep your changes.",
];
export const GERMAN = [
  "Die Größe der Datei überschreitet das Limit.",
  "Bitte speichern Sie Ihre Änderungen vor dem Schließen.",
  "Übermorgen wird die Straße gesperrt.",
];
export const JAPANESE = ["東京都の天気は晴れです", "ファイルを保存しました", "設定を変更してください"];

const JP_FONT = "IPAGothic, Noto Sans CJK JP, Droid Sans Fallback";

export async function englishScreen(): Promise<Buffer> {
  return renderPage({
    decor: WINDOW_DECOR(1280, 800),
    lines: [
      { text: "Inbox", x: 24, y: 80, size: 15, weight: "bold" },
      { text: "Drafts", x: 24, y: 110, size: 15 },
      { text: "Project status", x: 90, y: 25, size: 14 },
      ...ENGLISH.map((text, i) => ({ text, x: 250, y: 100 + i * 48, size: [16, 14, 18, 15][i]!, font: i % 2 ? "DejaVu Serif" : "DejaVu Sans" })),
    ],
  });
}

export async function germanScreen(): Promise<Buffer> {
  return renderPage({ decor: WINDOW_DECOR(1280, 800), lines: GERMAN.map((text, i) => ({ text, x: 250, y: 100 + i * 50, size: 17 })) });
}

export async function japaneseScreen(): Promise<Buffer> {
  return renderPage({ decor: WINDOW_DECOR(1280, 800), lines: JAPANESE.map((text, i) => ({ text, x: 250, y: 110 + i * 60, size: 24, font: JP_FONT })) });
}

/** Every PII type the redaction knows, with the exact string planted. */
export const PLANTED: { type: string; value: string; label: string }[] = [
  { type: "email", label: "Email:", value: "jane.doe@example.com" },
  { type: "email", label: "Reply-To:", value: "billing-team@acme-corp.io" },
  { type: "phone", label: "Phone:", value: "+1 (415) 555-2671" },
  { type: "phone", label: "Mobil:", value: "+49 30 901820" },
  { type: "ssn", label: "SSN:", value: "123-45-6789" },
  { type: "credit_card", label: "Visa:", value: "4111 1111 1111 1111" },
  { type: "credit_card", label: "Mastercard:", value: "5500-0000-0000-0004" },
  { type: "api_key", label: "AWS key:", value: "AKIAIOSFODNN7EXAMPLE" },
  { type: "api_key", label: "GitHub:", value: "ghp_R7x2Kq9LmN4pT8vW3yZ6bC1dF5gH0jA2sE4u" },
  { type: "api_key", label: "Slack:", value: "xoxb-2048-4096-Ab3Cd5Ef7Gh9" },
  { type: "api_key", label: "Stripe:", value: "sk_live_4eC39HqLyjWDarjtT1zdp7dc" },
  { type: "api_key", label: "Google:", value: "AIzaSyD4x7Kp2Qm9Rt5Vw8Yz3Bc6Df1Gh4Jk7Lm" },
  { type: "api_key", label: "OpenAI:", value: "sk-proj-T3kF8mW2qX9vB5nR7cL4hJ6d" },
  { type: "api_key", label: "Session:", value: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.dBjftJeZ4CVPmB92K" },
  { type: "api_key", label: "Key file:", value: "-----BEGIN RSA PRIVATE KEY-----" },
  { type: "api_key", label: "client_secret =", value: "Zx8Qw3Er6Ty9Ui2Op5As7Df1Gh4" },
  { type: "ip_address", label: "Server:", value: "192.168.10.42" },
  { type: "ip_address", label: "Gateway v6:", value: "2001:db8:85a3::8a2e:370:7334" },
];

/** Where each planted item's line was drawn (baseline y, font size, column), in PLANTED order. */
export function piiLayout(): { x: number; y: number; size: number; right: number }[] {
  const sizes = [15, 17, 20, 16];
  const half = Math.ceil(PLANTED.length / 2);
  return PLANTED.map((_, i) => {
    const dark = i >= half;
    const x = dark ? 790 : 40;
    return { x, y: 130 + (dark ? i - half : i) * 90, size: sizes[i % sizes.length]!, right: dark ? 1500 : 760 };
  });
}

/** Planted PII on a light panel and a dark panel, in several fonts and sizes. */
export async function piiScreen(): Promise<Buffer> {
  const width = 1500;
  const height = 1000;
  const fonts = ["DejaVu Sans", "DejaVu Sans Mono", "DejaVu Serif", "Liberation Sans"];
  const sizes = [15, 17, 20, 16];
  const half = Math.ceil(PLANTED.length / 2);
  const lines: TextLine[] = [{ text: "Customer record — internal", x: 40, y: 60, size: 22, weight: "bold" }];
  PLANTED.forEach((p, i) => {
    const dark = i >= half;
    const row = dark ? i - half : i;
    lines.push({
      text: `${p.label} ${p.value}`,
      x: dark ? 790 : 40,
      y: 130 + row * 90,
      size: sizes[i % sizes.length],
      font: fonts[i % fonts.length],
      color: dark ? "#e6edf3" : "#1f2328",
    });
  });
  return renderPage({ width, height, decor: `<rect x="760" y="90" width="720" height="880" fill="#0d1117"/>`, lines });
}

/** A screen with ordinary text and numbers that are not PII (versions, prices, dates, times). */
export async function cleanScreen(): Promise<Buffer> {
  return renderPage({
    width: 1200,
    height: 600,
    decor: WINDOW_DECOR(1200, 600),
    lines: [
      { text: "Release notes for version 2.4.1", x: 250, y: 100, size: 20, weight: "bold" },
      { text: "Fixed a crash when opening large projects.", x: 250, y: 150 },
      { text: "Total: 1,299.00 EUR due on 2026-03-15 at 14:30", x: 250, y: 200 },
      { text: "Build 20260315 finished in 42 seconds.", x: 250, y: 250 },
      { text: "Thanks to everyone who reported issues.", x: 250, y: 300, font: "DejaVu Serif" },
    ],
  });
}

/** Words of a text, lowercased, punctuation trimmed (for word-level comparisons). */
export const words = (s: string) =>
  s
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter(Boolean);

/** Share of the expected words found in order-independent OCR output. */
export function wordAccuracy(expected: string[], ocrText: string): number {
  const got = new Map<string, number>();
  for (const w of words(ocrText)) got.set(w, (got.get(w) ?? 0) + 1);
  const all = expected.flatMap(words);
  let hit = 0;
  for (const w of all) {
    const n = got.get(w) ?? 0;
    if (n > 0) {
      hit++;
      got.set(w, n - 1);
    }
  }
  return all.length ? hit / all.length : 1;
}
