// What the figma function and the Figma plugin agree on: the routes the plugin calls with its
// device token (from Figma's iframe, `Origin: null`), what it gets back, and the commands and
// answers relayed through them; the request bodies are figma-plugin-requests.ts (the schemas the
// function validates them with). The routes: domains/figma/routes.ts; the caller:
// figma-plugin/src/bridge.ts. The plugin bundles this file: no runtime imports here (zod stays out
// of the plugin; it imports the request types with `import type`).
import type { FirebaseSignIn } from "./oauth.js";

export const PLUGIN_ROUTES = {
  /** Register (or resume) the open file's session → SessionRegistered. */
  sessions: "/plugin/sessions",
  /** GET ?room=<roomId>: the long-poll, also the heartbeat → CommandBatch. */
  commands: "/plugin/commands",
  /** The page or file name changed. */
  heartbeat: "/plugin/heartbeat",
  /** A command's answer. */
  results: "/plugin/results",
  /** The window is closing: the session ends now. */
  close: "/plugin/close",
} as const;

/** The keep-alive a plugin is held to when it declares none; polls come at least this often. */
export const DEFAULT_KEEPALIVE_SECONDS = 4;
/** A plugin may declare 1–30 s (older plugins asked for 10)… */
export const MIN_KEEPALIVE_SECONDS = 1;
export const MAX_DECLARED_KEEPALIVE_SECONDS = 30;
/** …and is held to at most this, so a plugin that stops is noticed within seconds whatever it asked. */
export const MAX_KEEPALIVE_SECONDS = 4;

/** A command's answer may be this large (an exported image, base64). */
export const MAX_RESULT_BODY_BYTES = 12 * 1024 * 1024;

/**
 * The answer to register: the room, the keep-alive held to, how long a poll is held, and (when the
 * function can mint one) the device's own Firestore sign-in: the plugin then listens to its room's
 * pending commands there and holds no request open; without it, or when listening cannot start, it
 * long-polls.
 */
export interface SessionRegistered {
  roomId: string;
  keepaliveSeconds: number;
  pollSeconds: number;
  listen?: FirebaseSignIn;
}

/** Where the relay lives in Firestore: figma_sessions/{roomId}/figma_commands/{commandId}. */
export const RELAY_COLLECTIONS = { sessions: "figma_sessions", commands: "figma_commands" } as const;
/** A listening plugin writes only this field of its session (firestore.rules), every keep-alive. */
export const LAST_SEEN_FIELD = "lastSeenAt";

/** One tool call for the plugin to run: the command's name is the MCP tool's, its args the tool's arguments. */
export interface PluginCommand {
  commandId: string;
  tool: string;
  args: unknown;
}

/** The answer to a poll (`superseded`: a newer poll of the same room took over). */
export interface CommandBatch {
  commands: PluginCommand[];
  superseded?: true;
}

/** The codes a plugin's error may carry; the function maps each to an MCP error. */
export const PLUGIN_ERROR_CODES = ["not_found", "invalid_input", "unsupported", "conflict", "too_large"] as const;
export type PluginErrorCode = (typeof PLUGIN_ERROR_CODES)[number];

/** What the plugin answers a command with: a result, or an error phrased for the agent. */
export type PluginAnswer = { ok: true; result: unknown } | { ok: false; error: { code?: PluginErrorCode | (string & {}); message: string } };

export type CommandResult = { roomId: string; commandId: string } & PluginAnswer;

/** FigJam's sticky colours by name (what a FigJam user picks), as r, g, b from 0 to 1. */
export const STICKY_COLORS = {
  gray: { r: 0.9, g: 0.9, b: 0.9 },
  orange: { r: 1, g: 0.78, b: 0.62 },
  yellow: { r: 1, g: 0.91, b: 0.64 },
  green: { r: 0.7, g: 0.94, b: 0.73 },
  teal: { r: 0.66, g: 0.9, b: 0.91 },
  blue: { r: 0.66, g: 0.85, b: 1 },
  violet: { r: 0.82, g: 0.76, b: 1 },
  pink: { r: 1, g: 0.74, b: 0.9 },
  red: { r: 1, g: 0.7, b: 0.68 },
  white: { r: 1, g: 1, b: 1 },
} as const;
export type StickyColor = keyof typeof STICKY_COLORS;

/** FigJam's shapes with text (ShapeWithTextNode.shapeType). */
export const FIGJAM_SHAPES = [
  "SQUARE", "ELLIPSE", "ROUNDED_RECTANGLE", "DIAMOND", "TRIANGLE_UP", "TRIANGLE_DOWN", "PARALLELOGRAM_RIGHT", "PARALLELOGRAM_LEFT",
  "ENG_DATABASE", "ENG_QUEUE", "ENG_FILE", "ENG_FOLDER", "TRAPEZOID", "PREDEFINED_PROCESS", "SHIELD", "DOCUMENT_SINGLE",
  "DOCUMENT_MULTIPLE", "MANUAL_INPUT", "HEXAGON", "CHEVRON", "PENTAGON", "OCTAGON", "STAR", "PLUS", "ARROW_LEFT", "ARROW_RIGHT",
  "SUMMING_JUNCTION", "OR", "SPEECH_BUBBLE", "INTERNAL_STORAGE",
] as const;
export type FigjamShape = (typeof FIGJAM_SHAPES)[number];

/** The ends a FigJam connector can draw (ConnectorStrokeCap). */
export const CONNECTOR_CAPS = [
  "NONE", "ARROW_EQUILATERAL", "ARROW_LINES", "TRIANGLE_FILLED", "DIAMOND_FILLED", "CIRCLE_FILLED",
  "ERD_ZERO_OR_ONE", "ERD_EXACTLY_ONE", "ERD_ZERO_OR_MORE", "ERD_ONE_OR_MORE", "ERD_ONE", "ERD_MANY",
] as const;

/** A point of a diagram, in the diagram's own coordinates (pixels, y down). */
export interface DiagramPoint {
  x: number;
  y: number;
}

/** A box of a diagram: a vertex, state, class, entity or actor (`shape` is mermaid's name for it). */
export interface DiagramNode {
  id: string;
  /** Its text: the label, or for classes and entities the lines of the box. */
  label: string;
  shape: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The group it sits in (a subgraph or composite state). */
  groupId?: string;
}

/** A line between two nodes (by id) or two points (sequence messages). */
export interface DiagramEdge {
  from: string | DiagramPoint;
  to: string | DiagramPoint;
  label?: string;
  arrowStart: boolean;
  arrowEnd: boolean;
  dashed: boolean;
}

/** A subgraph or composite state: a box around nodes. */
export interface DiagramGroup {
  id: string;
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A Mermaid diagram as the suite's engine laid it out: nodes, edges and groups in mermaid's own
 * order. Types the engine cannot take apart (pie, gantt, …) come as `svg` with no nodes.
 */
export interface DiagramLayout {
  diagramType: string;
  width: number;
  height: number;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  groups: DiagramGroup[];
  svg?: string;
}
