// The seed's annotation object, checked per type: an invalid annotation is named by its index
// and field ("annotations.2.width is required for rect"), through the shared input validation.
import { z } from "zod";

export const ANNOTATION_TYPES = ["arrow", "rect", "ellipse", "text", "blur"] as const;
export const DEFAULT_COLOR = "#FF0000";
export const DEFAULT_STROKE_WIDTH = 2;
export const MAX_ANNOTATIONS = 200;

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
// The CSS named colors: any other word would be drawn in no color at all, silently.
const COLOR_NAMES = new Set(
  ("aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey " +
    "lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen").split(" "),
);
const isColor = (c: string) => HEX_COLOR.test(c) || COLOR_NAMES.has(c.toLowerCase());
const coordinate = z.number().finite().min(-100_000).max(100_000);

const point = z.object({ x: coordinate, y: coordinate });

export const annotationSchema = z
  .object({
    type: z.enum(ANNOTATION_TYPES).describe("What to draw"),
    x: coordinate.optional().describe("x of the origin (top-left for rect, ellipse, text, blur)"),
    y: coordinate.optional().describe("y of the origin"),
    width: z.number().finite().min(0).max(100_000).optional().describe("Width of the bounding box"),
    height: z.number().finite().min(0).max(100_000).optional().describe("Height of the bounding box (for text: the font size, default 16)"),
    points: z.array(point).max(1000).optional().describe("Points of an arrow, from tail to head (at least 2)"),
    text: z.string().max(1000).optional().describe("Text of a text annotation"),
    color: z
      .string()
      .refine(isColor, { message: "must be a hex color such as #FF0000 or a CSS color name such as red" })
      .default(DEFAULT_COLOR)
      .describe("Stroke/fill color (default #FF0000)"),
    stroke_width: z.number().finite().min(0.5).max(100).default(DEFAULT_STROKE_WIDTH).describe("Stroke width in pixels (default 2)"),
  })
  .superRefine((a, ctx) => {
    const need = (field: "x" | "y" | "width" | "height" | "text") => {
      if (a[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: `is required for ${a.type}` });
    };
    switch (a.type) {
      case "rect":
      case "ellipse":
      case "blur":
        (["x", "y", "width", "height"] as const).forEach(need);
        break;
      case "text":
        (["x", "y", "text"] as const).forEach(need);
        if (a.text !== undefined && !a.text.trim()) ctx.addIssue({ code: "custom", path: ["text"], message: "must not be empty" });
        break;
      case "arrow":
        // Either points (tail … head) or a box from (x, y) to (x + width, y + height).
        if (a.points) {
          if (a.points.length < 2) ctx.addIssue({ code: "custom", path: ["points"], message: "must have at least 2 points for arrow" });
        } else if ([a.x, a.y, a.width, a.height].some((v) => v === undefined)) {
          ctx.addIssue({ code: "custom", path: ["points"], message: "is required for arrow (or x, y, width and height from tail to head)" });
        }
        break;
    }
  });

export type Annotation = z.output<typeof annotationSchema>;
export const annotationsSchema = z.array(annotationSchema).min(1).max(MAX_ANNOTATIONS);
