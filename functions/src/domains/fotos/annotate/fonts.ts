// Text annotations need a font that librsvg (inside sharp) can find through fontconfig. Cloud
// Functions' image has almost no fonts, so the fonts shipped in functions/assets/fonts (Liberation
// Sans) are added to fontconfig's search path, beside the system's fonts (DejaVu Sans on Debian:
// fonts-dejavu-core). Must run before the first SVG with text is rendered: fontconfig reads its
// configuration once per process.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const FONT_FAMILY = "Liberation Sans, DejaVu Sans, sans-serif";

let done = false;

export function ensureFonts(): void {
  if (done || process.env.FONTCONFIG_FILE) return;
  done = true;
  // lib/domains/fotos/annotate → functions/assets/fonts (the same from src/ in tests); bundled
  // into fotos-agent (dist/cli.js), its build copies them to dist/fonts.
  const here = dirname(fileURLToPath(import.meta.url));
  const assets = [join(here, "../../../../assets/fonts"), join(here, "fonts")].find((dir) => existsSync(join(dir, "LiberationSans-Regular.ttf"))) ?? "";
  const system = ["/etc/fonts/fonts.conf"].filter(existsSync).map((f) => `<include ignore_missing="yes">${f}</include>`).join("");
  const dir = mkdtempSync(join(tmpdir(), "fotos-fonts-"));
  const file = join(dir, "fonts.conf");
  writeFileSync(
    file,
    `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>${system}${assets ? `<dir>${assets}</dir>` : ""}<cachedir>${dir}</cachedir></fontconfig>`,
  );
  process.env.FONTCONFIG_FILE = file;
}
