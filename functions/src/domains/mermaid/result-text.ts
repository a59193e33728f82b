// The text block of render and svg. Small results carry the JSON of the data, as every tool does.
// A large SVG is not repeated there: the shared layer would cut the text mid-SVG (MAX_RESULT_TEXT),
// and the same SVG twice plus a PNG would crowd what a client accepts in one result
// (MAX_RESULT_BYTES). The text then says what was drawn and where the SVG is.
import { jsonText, MAX_RESULT_TEXT } from "../../mcp/content.js";

export function resultText(data: { svg: string; filename?: string }, diagramType: string, verb: "Rendered" | "Exported"): string {
  const full = jsonText(data);
  if (full.length <= MAX_RESULT_TEXT) return full;
  const vb = /^<svg[^>]*\sviewBox="\s*[-\d.e]+[\s,]+[-\d.e]+[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)\s*"/.exec(data.svg);
  const size = vb ? `${Math.round(Number(vb[1]))}×${Math.round(Number(vb[2]))}, ` : "";
  const file = data.filename ? `; suggested filename ${data.filename}` : "";
  return `${verb} ${diagramType} diagram: ${size}${Math.ceil(data.svg.length / 1000)} KB SVG in structuredContent.svg${file}`;
}
