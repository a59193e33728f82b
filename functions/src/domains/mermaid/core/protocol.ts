// Messages between the request thread (pool.ts) and a render worker (worker.ts).
export const THEMES = ["default", "neutral", "dark", "forest", "base"] as const;
export type Theme = (typeof THEMES)[number];

export type Job =
  | { op: "verify"; code: string }
  | { op: "render"; code: string; theme: Theme; png: boolean }
  | { op: "warmup" };

export interface VerifyOutcome {
  ok: boolean;
  error?: string;
  diagramType?: string;
}

export interface RenderOutcome {
  svg: string;
  diagramType: string;
  /** PNG bytes (htmlLabels:false pass through resvg), when asked for and it succeeded. */
  png?: Uint8Array;
  pngWidth?: number;
  pngHeight?: number;
}

export type JobError = { kind: "syntax" | "render" | "internal"; message: string };

export type WorkerRequest = { id: number; job: Job };
export type WorkerReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: JobError };
