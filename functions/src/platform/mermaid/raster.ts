// SVG → PNG for the model to look at, through resvg (Rust, no browser). resvg does not show
// foreignObject, so it is given the text-label variant of the SVG (text-labels.ts): the same
// layout as the SVG the user gets. Loaded on first use: a cold start that only verifies or renders
// SVG never pays for it.
import { MAX_IMAGE_SIDE } from "../../core/images.js";
import { FONT_FILES } from "./fonts.js";
import type { Theme } from "./protocol.js";

const BACKGROUND: Record<Theme, string> = { default: "#ffffff", neutral: "#ffffff", forest: "#ffffff", base: "#ffffff", dark: "#333333" };

let resvg: typeof import("@resvg/resvg-js") | undefined;

/** The PNG of `svg` (labels as SVG text), ≤ MAX_IMAGE_SIDE a side, 2× for small diagrams. */
export async function rasterize(svg: string, theme: Theme): Promise<Uint8Array> {
  resvg ??= await import("@resvg/resvg-js");
  // Give the picture an intrinsic size (the SVG says width="100%").
  const vb = /viewBox="\s*([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)\s*"/.exec(svg);
  const w = vb ? Math.max(1, parseFloat(vb[3]!)) : 800;
  const h = vb ? Math.max(1, parseFloat(vb[4]!)) : 600;
  const sized = svg.replace(/^<svg([^>]*)>/, (_m, attrs: string) => {
    const cleaned = attrs.replace(/\s(width|height)="[^"]*"/g, "").replace(/\sstyle="[^"]*"/, "");
    return `<svg${cleaned} width="${w}" height="${h}">`;
  });
  const zoom = Math.min(2, MAX_IMAGE_SIDE / Math.max(w, h));
  const image = new resvg.Resvg(sized, {
    fitTo: { mode: "zoom", value: zoom },
    background: BACKGROUND[theme],
    font: {
      fontFiles: Object.values(FONT_FILES),
      loadSystemFonts: false,
      defaultFontFamily: "Liberation Sans",
      sansSerifFamily: "Liberation Sans",
      serifFamily: "Liberation Sans",
      monospaceFamily: "Liberation Sans",
    },
  }).render();
  return image.asPng();
}
