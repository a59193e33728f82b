// Documents the design tests need, built in the model the way a designer builds them in Figma.
//   "design": page "Design" with a pricing card — nested auto-layout, text styles, variables in two
//             modes (the card sets Dark), a Button component set (Size variants; Label text and
//             Show icon boolean properties) and an instance of it — plus annotations; and a Chip
//             component with an instance-swap icon property, with one instance ("Tag chip").
//   "large":  page "Big" with 2,000 layers (20 sections × 9 cards × 10 layers, and the cards).
import type { createFakeFigma, FakeNode } from "./fake-figma.js";

type Fake = ReturnType<typeof createFakeFigma>;
const rgb = (hex: string) => ({ r: parseInt(hex.slice(1, 3), 16) / 255, g: parseInt(hex.slice(3, 5), 16) / 255, b: parseInt(hex.slice(5, 7), 16) / 255 });
const solid = (hex: string) => ({ type: "SOLID", color: rgb(hex), opacity: 1 });

/** The pricing card's expected geometry (what Figma's auto-layout computed). */
export const CARD = { id: "5:1", width: 360, height: 184, padding: 24, gap: 16 } as const;
export const COLORS = { surfaceLight: "#FFFFFF", surfaceDark: "#111827", textLight: "#111827", textDark: "#F9FAFB", brandLight: "#2563EB", brandDark: "#60A5FA", badge: "#DCFCE7" } as const;

export function addDesignPage({ api, add, styles }: Fake): void {
  styles.textStyles.push(
    { id: "S:h2,", key: "k-h2", name: "Heading/H2", description: "", type: "TEXT", fontName: { family: "Inter", style: "Bold" }, fontSize: 24, lineHeight: { unit: "PIXELS", value: 32 } as never, letterSpacing: { unit: "PIXELS", value: 0 } },
    { id: "S:body,", key: "k-body", name: "Body/Regular", description: "", type: "TEXT", fontName: { family: "Inter", style: "Regular" }, fontSize: 16, lineHeight: { unit: "PIXELS", value: 24 } as never, letterSpacing: { unit: "PIXELS", value: 0 } },
  );
  const v = api.variables;
  const theme = v.createVariableCollection("Theme");
  const light = theme.modes[0]!.modeId;
  theme.renameMode(light, "Light");
  const dark = theme.addMode("Dark");
  const color = (name: string, l: string, d: string) => {
    const variable = v.createVariable(name, theme, "COLOR");
    variable.setValueForMode(light, { ...rgb(l), a: 1 });
    variable.setValueForMode(dark, { ...rgb(d), a: 1 });
    return variable;
  };
  const surface = color("color/surface", COLORS.surfaceLight, COLORS.surfaceDark);
  const text = color("color/text", COLORS.textLight, COLORS.textDark);
  const brand = color("color/brand", COLORS.brandLight, COLORS.brandDark);
  brand.setVariableCodeSyntax("WEB", "var(--brand-primary)");
  const spacing = v.createVariableCollection("Spacing");
  spacing.renameMode(spacing.modes[0]!.modeId, "Value");
  const number = (name: string, value: number) => {
    const variable = v.createVariable(name, spacing, "FLOAT");
    variable.setValueForMode(spacing.defaultModeId, value);
    return variable;
  };
  const md = number("space/md", 16);
  const lg = number("space/lg", 24);
  const radius = number("radius/card", 12);
  const label = v.createVariable("copy/cta", theme, "STRING");
  label.setValueForMode(light, "Buy now");
  label.setValueForMode(dark, "Buy now");

  const page = add("PAGE", { name: "Design", parent: api.root, selection: [] }, "0:3");

  // The Button component set: Size=Small / Size=Large, each an auto-layout row with an icon and a label.
  const set = add("COMPONENT_SET", { name: "Button", parent: page, x: 600, y: 0, width: 400, height: 120, layoutMode: "HORIZONTAL", itemSpacing: 20 }, "6:1");
  const variant = (id: string, size: "Small" | "Large", w: number, h: number) => {
    const c = add("COMPONENT", { name: `Size=${size}`, parent: set, width: w, height: h, layoutMode: "HORIZONTAL", itemSpacing: 8, paddingTop: 12, paddingBottom: 12, paddingLeft: 24, paddingRight: 24, counterAxisAlignItems: "CENTER", fills: [solid(COLORS.brandLight)], topLeftRadius: 8, topRightRadius: 8, bottomLeftRadius: 8, bottomRightRadius: 8 }, id);
    c.fills = [api.variables.setBoundVariableForPaint(c.fills[0], "color", brand)];
    return c;
  };
  const small = variant("6:2", "Small", 120, 36);
  const large = variant("6:3", "Large", 160, 48);
  const labelProp = set.addComponentProperty("Label", "TEXT", "Buy");
  const iconProp = set.addComponentProperty("Show icon", "BOOLEAN", true);
  for (const c of [small, large]) {
    add("VECTOR", { name: "Icon", parent: c, width: 16, height: 16, fills: [solid("#FFFFFF")], componentPropertyReferences: { visible: iconProp }, layoutSizingHorizontal: "FIXED", layoutSizingVertical: "FIXED" });
    add("TEXT", { name: "Label", parent: c, width: 40, height: 24, characters: "Buy", fontSize: 16, lineHeight: { unit: "PIXELS", value: 24 }, fills: [solid("#FFFFFF")], componentPropertyReferences: { characters: labelProp }, layoutSizingHorizontal: "HUG", layoutSizingVertical: "HUG" });
  }

  // The pricing card: a column (padding and gap bound to spacing variables, fill to color/surface, Dark mode).
  const card = add("FRAME", {
    name: "Pricing card", parent: page, x: 0, y: 0, width: CARD.width, height: CARD.height, layoutMode: "VERTICAL",
    paddingTop: 24, paddingRight: 24, paddingBottom: 24, paddingLeft: 24, itemSpacing: 16, layoutSizingHorizontal: "FIXED", layoutSizingVertical: "HUG",
    primaryAxisSizingMode: "AUTO", fills: [solid(COLORS.surfaceLight)], effects: [{ type: "DROP_SHADOW", color: { r: 0, g: 0, b: 0, a: 0.25 }, offset: { x: 0, y: 4 }, radius: 16, spread: 0, visible: true, blendMode: "NORMAL" }],
  }, CARD.id);
  card.fills = [api.variables.setBoundVariableForPaint(card.fills[0], "color", surface)];
  for (const side of ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft"]) card.setBoundVariable(side, lg);
  card.setBoundVariable("itemSpacing", md);
  for (const corner of ["topLeftRadius", "topRightRadius", "bottomLeftRadius", "bottomRightRadius"]) card.setBoundVariable(corner, radius);
  card.setExplicitVariableModeForCollection(theme, dark);
  card.annotations = [{ label: "Card width is fixed at 360 on desktop; full width below 400 px", properties: [{ type: "width" }], categoryId: "AC:1" }];

  // Header: a row (title left, badge right), filling the card's width, hugging its height.
  const header = add("FRAME", { name: "Header", parent: card, x: 24, y: 24, width: 312, height: 32, layoutMode: "HORIZONTAL", primaryAxisAlignItems: "SPACE_BETWEEN", counterAxisAlignItems: "CENTER", itemSpacing: 12, layoutSizingHorizontal: "FILL", layoutSizingVertical: "HUG", fills: [] }, "5:2");
  const title = add("TEXT", { name: "Title", parent: header, x: 0, y: 0, width: 110, height: 32, layoutSizingHorizontal: "HUG", layoutSizingVertical: "HUG", fontName: { family: "Inter", style: "Bold" }, fontSize: 24, lineHeight: { unit: "PIXELS", value: 32 }, characters: "Pro plan", textStyleId: "S:h2,", fills: [solid(COLORS.textLight)] }, "5:3");
  title.fills = [api.variables.setBoundVariableForPaint(title.fills[0], "color", text)];
  title.textStyleId = "S:h2,";
  const badge = add("FRAME", { name: "Badge", parent: header, x: 238, y: 4, width: 74, height: 24, layoutMode: "HORIZONTAL", paddingTop: 4, paddingBottom: 4, paddingLeft: 8, paddingRight: 8, layoutSizingHorizontal: "HUG", layoutSizingVertical: "HUG", fills: [solid(COLORS.badge)], topLeftRadius: 12, topRightRadius: 12, bottomLeftRadius: 12, bottomRightRadius: 12 }, "5:4");
  add("TEXT", { name: "Badge label", parent: badge, x: 8, y: 4, width: 58, height: 16, fontSize: 12, lineHeight: { unit: "PIXELS", value: 16 }, characters: "Popular", fills: [solid("#166534")], layoutSizingHorizontal: "HUG", layoutSizingVertical: "HUG" }, "5:5");

  // Price: two spans (bold amount, regular period), body text style, filling the width.
  const price = add("TEXT", { name: "Price", parent: card, x: 24, y: 72, width: 312, height: 24, layoutSizingHorizontal: "FILL", layoutSizingVertical: "HUG", textAutoResize: "HEIGHT", fontSize: 16, lineHeight: { unit: "PIXELS", value: 24 }, characters: "$29/month", textStyleId: "S:body,", fills: [solid(COLORS.textLight)] }, "5:6");
  price.fills = [api.variables.setBoundVariableForPaint(price.fills[0], "color", text)];
  price.textStyleId = "S:body,";
  price._spans = [
    { start: 0, end: 3, fontName: { family: "Inter", style: "Bold" }, textStyleId: "" },
    { start: 3, end: 9 },
  ];

  // The call to action: an instance of Button Size=Large with its label overridden.
  const cta = large.createInstance();
  cta.name = "Buy button";
  Object.assign(cta, { x: 24, y: 112, layoutSizingHorizontal: "FIXED", layoutSizingVertical: "FIXED" });
  card.appendChild(cta);
  cta._overrides[labelProp] = "Buy now";
  for (const c of cta.children) if (c.type === "TEXT") c.characters = "Buy now";

  // A Chip whose leading icon is an instance-swap property (Icon/Star by default), and one instance of it.
  const star = add("COMPONENT", { name: "Icon/Star", parent: page, x: 600, y: 200, width: 16, height: 16 }, "6:10");
  add("COMPONENT", { name: "Icon/Arrow", parent: page, x: 640, y: 200, width: 16, height: 16 }, "6:11");
  const chip = add("COMPONENT", { name: "Chip", parent: page, x: 600, y: 300, width: 80, height: 24, layoutMode: "HORIZONTAL" }, "6:20");
  const swapProp = chip.addComponentProperty("Icon", "INSTANCE_SWAP", star.id);
  const leading = star.createInstance();
  leading.name = "Leading icon";
  leading.componentPropertyReferences = { mainComponent: swapProp };
  chip.appendChild(leading);
  const chipInstance = chip.createInstance();
  Object.assign(chipInstance, { name: "Tag chip", x: 0, y: 400 });
  page.appendChild(chipInstance);

  page.selection = [card];
}

/** 2,000 layers: 20 sections of 9 cards of 10 layers (cards differ in width, as real content does). */
export function addLargePage({ api, add }: Fake): void {
  const page = add("PAGE", { name: "Big", parent: api.root, selection: [] }, "0:4");
  let n = 0;
  const id = () => `9:${++n}`;
  for (let s = 1; s <= 20; s++) {
    const section = add("FRAME", { name: `Section ${s}`, parent: page, x: 0, y: s * 1000, width: 3200, height: 900 }, id());
    for (let c = 1; c <= 9; c++) {
      const card: FakeNode = add("FRAME", { name: `Card ${c}`, parent: section, x: c * 340, y: 0, width: 300 + ((s * 7 + c * 13) % 5) * 10, height: 420, layoutMode: "VERTICAL" }, id());
      for (const [type, name] of [["RECTANGLE", "Image"], ["TEXT", "Title"], ["TEXT", "Body"], ["TEXT", "Price"], ["FRAME", "Rating"], ["FRAME", "Tag"], ["RECTANGLE", "Divider"], ["VECTOR", "Icon"], ["FRAME", "CTA"], ["TEXT", "Footer"]] as const) {
        add(type, { name, parent: card, width: 280, height: 24, ...(type === "TEXT" ? { characters: `${name} ${s}.${c}` } : {}) }, id());
      }
    }
  }
}
