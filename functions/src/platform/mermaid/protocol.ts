// Messages between the request thread (pool.ts) and a render worker (worker.ts).
export const THEMES = ["default", "neutral", "dark", "forest", "base"] as const;
export type Theme = (typeof THEMES)[number];

/** Longest diagram code accepted, in characters (checked in service.ts, and mermaid's maxTextSize). */
export const MAX_CODE_LENGTH = 50_000;

/** How labels are drawn: HTML in foreignObject (what browsers show best) or plain SVG text. */
export const LABELS = ["html", "text"] as const;
export type Labels = (typeof LABELS)[number];

export type Job =
  | { op: "verify"; code: string }
  | { op: "render"; code: string; theme: Theme; png: boolean; labels?: Labels }
  | { op: "layout"; code: string }
  | { op: "warmup" };

/** What a worker's start cost, in ms from the thread's start (logged by the pool; the bench prints it). */
export interface WarmupTimings {
  /** Node + the worker's own code read and compiled (the bundle: one file). */
  loaded: number;
  /** jsdom, css-tree and our modules evaluated. */
  modules: number;
  /** The DOM installed, fonts, mermaid imported and initialised, DOMPurify. */
  init: number;
  /** The first diagram drawn (mermaid's lazy flowchart modules, first compilations). */
  firstRender: number;
}

export interface VerifyOutcome {
  ok: boolean;
  error?: string;
}

export interface RenderOutcome {
  svg: string;
  diagramType: string;
  /** PNG bytes (the same SVG, labels as text, through resvg), when asked for and it succeeded. */
  png?: Uint8Array;
  /** Why rasterising failed (logged by the caller; the SVG is still returned). */
  pngError?: string;
}

/**
 * Largest SVG we return. A 38 KB sequence diagram of 1,400 messages draws a 613 KB SVG; with the
 * text and the PNG next to it, that nears what MCP clients accept in one result (Claude: ~1 MB),
 * and a cut SVG is worse than none. Refused (too_large) above this, before the PNG pass.
 */
export const MAX_SVG_CHARS = 400_000;

/**
 * What went wrong in a job. syntax/render: the diagram (the caller can fix it); too_large: the
 * output; internal: our side (message and stack are for the logs only).
 */
export type JobError = { kind: "syntax" | "render" | "too_large" | "internal"; message: string; stack?: string };

export type WorkerRequest = { id: number; job: Job };
export type WorkerReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: JobError };
