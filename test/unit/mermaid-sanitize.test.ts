// The sanitizer's CSS and XML rules on their own (the end-to-end security tests run the same
// inputs through the served function): CSS parsed (css-tree) and allow-listed, never pattern-patched.
import { describe, expect, test } from "vitest";
import { cleanCss, cleanStyleAttr, isXmlAttrName, xmlChars } from "../../functions/src/platform/mermaid/sanitize.js";

// What could load or run something (an inert leftover such as "75rl(http:…)" after an escape is removed loads nothing).
const EXTERNAL = /url\s*\(\s*['"]?(?!#)|image-set|image\(|cross-fade|@import|expression\(|src\(/i;

describe("style attributes", () => {
  test.each([
    ["unterminated url(", "background-image:url(http://evil.example/s.png"],
    ["unterminated quoted url(", 'background-image:url("http://evil.example/s.png'],
    ["unterminated single-quoted url(", "background-image:url('http://evil.example/s.png"],
    ["a # target with mismatched quotes", "background:url('#x\"); background:url(http://evil.example/p.png); a:(')"],
    ["image-set with a string", 'background-image:image-set("http://evil.example/a.png" 1x)'],
    ["cross-fade", "background:cross-fade(url(http://evil.example/a.png), red 50%)"],
    ["escaped url", "background:\\75rl(http://evil.example/e.png)"],
    ["url behind a comment", "background:/* x */url(http://evil.example/c.png)"],
    ["expression()", "width:expression(alert(1))"],
  ])("%s is dropped", (_name, css) => {
    const out = cleanStyleAttr(`color:red;${css}`);
    expect(out).not.toMatch(EXTERNAL);
    expect(out).toContain("color:red");
  });

  test("in-document references are kept", () => {
    expect(cleanStyleAttr("fill:url(#grad-1)")).toBe("fill:url(#grad-1)");
    expect(cleanStyleAttr("marker-end: url('#arrow')")).toBe("marker-end:url(#arrow)");
    expect(cleanStyleAttr('filter:url( "#mermaid-1_shadow" )')).toBe("filter:url(#mermaid-1_shadow)");
  });

  test.each([
    "position:fixed", "position: absolute", "POSITION:sticky", "z-index:9999", "inset:0", "top:0", "left:-100px",
    "transform:translate(-500px,0) scale(10)", "translate:10px", "float:left", "outline:100vw solid red", "content:'x'",
    "overflow:visible", "po\\73ition:fixed", "-webkit-transform:scale(9)",
  ])("%s is dropped; the rest of the style stays", (css) => {
    const out = cleanStyleAttr(`fill:#f9f;${css};color:red`);
    expect(out).toBe("fill:#f9f;color:red");
  });

  test("on the root <svg> only paint, text and max-width stay", () => {
    expect(cleanStyleAttr("max-width:120px;background-color:white;margin:-500px;width:5000px;filter:drop-shadow(0 0 900px red);box-shadow:0 0 9px red", "root")).toBe(
      "max-width:120px;background-color:white",
    );
  });
});

describe("<style> sheets", () => {
  test("a declaration with an external reference is dropped; the rest of its rule and the other rules stay", () => {
    const css = [
      "#m .node rect{fill:#ECECFF;stroke:#9370DB;}",
      "#m .bad{color:red;background:url(http://evil.example/x.png)}",
      "#m .worse{background:url('http://evil.example/y.png'",
      "#m .ok{marker-end:url(#arrow);}",
    ].join("");
    const out = cleanCss(css);
    expect(out).toContain("#m .node rect{fill:#ECECFF;stroke:#9370DB}");
    expect(out).not.toMatch(EXTERNAL);
    expect(out).toContain("#m .bad{color:red}");
  });

  test("@import, @font-face and rules inside @media are judged; keyframes survive", () => {
    const css =
      '@import url(http://evil.example/a.css);@import "http://evil.example/b.css";' +
      "@font-face{font-family:x;src:url(http://evil.example/f.woff)}" +
      "@media screen{.a{fill:red}.b{background:url(http://evil.example/m.png)}}" +
      "@keyframes dash{to{stroke-dashoffset:0;}}.c{fill:blue}";
    const out = cleanCss(css);
    expect(out).not.toMatch(EXTERNAL);
    expect(out).not.toContain("@media");
    expect(out).toContain("@keyframes dash{to{stroke-dashoffset:0}}");
    expect(out).toContain(".c{fill:blue}");
  });

  test("only rules that stay inside the diagram are kept: the sheet of an inline SVG applies to the whole page", () => {
    const css =
      "#m{fill:#333;font-size:16px;margin:-500px;overflow:visible}#m .node{fill:red;position:fixed;z-index:9}" +
      "body{display:none}svg{position:fixed}#m ~ p{display:none}#m+div{color:red}:is(#m,body) .x{color:red}#other .y{fill:red}" +
      "#m > .edge, body .z{stroke:blue}#m:hover .q{opacity:.5}";
    expect(cleanCss(css, "m")).toBe("#m{fill:#333;font-size:16px}#m .node{fill:red}#m>.edge{stroke:blue}#m:hover .q{opacity:.5}");
  });

  test("the mismatched-quote trick cannot assemble an external url", () => {
    const out = cleanCss(".x{background:url('#x\"); background:url(http://evil.example/p.png); a:(')}.y{fill:red}");
    expect(out).not.toMatch(EXTERNAL);
    expect(out).toContain(".y{fill:red}");
  });
});

describe("XML", () => {
  test("characters XML 1.0 cannot carry are removed, others kept", () => {
    expect(xmlChars("a\u0001b\u0008c\uffffd\ufffee\ud800f")).toBe("abcdef");
    expect(xmlChars("tab\tnl\ncr\r é 😀 \ufffd")).toBe("tab\tnl\ncr\r é 😀 \ufffd");
  });
  test("attribute names must be XML names; prefixes need a namespace", () => {
    expect(isXmlAttrName("data-look", null)).toBe(true);
    expect(isXmlAttrName("data-x\u037ey", null)).toBe(false);
    expect(isXmlAttrName("data-x;y", null)).toBe(false);
    expect(isXmlAttrName("foo:bar", null)).toBe(false);
    expect(isXmlAttrName("xlink:href", "http://www.w3.org/1999/xlink")).toBe(true);
  });
});
