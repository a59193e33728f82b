// Timing of the relay, from the environment (checked once at cold start). Defaults suit a person
// working in Figma; tests and the bench may set them smaller.
import { envNumber } from "../../core/env.js";

/** How long a tool waits for the plugin's answer before giving up. */
export const COMMAND_TIMEOUT_MS = envNumber("FIGMA_COMMAND_TIMEOUT_MS", 60_000, { min: 500 });
/** Longest a plugin's poll is held open when no command is waiting (under Cloud Run's and browsers' idle
 * limits); never longer than the session's keep-alive, since each poll is also its heartbeat. */
export const POLL_HOLD_MS = envNumber("FIGMA_POLL_HOLD_MS", 25_000, { min: 100 });
/** The keep-alive a plugin is held to when it does not declare one. */
export const DEFAULT_KEEPALIVE_SECONDS = 4;
/** A plugin may declare 1–30 s (older plugins asked for 10); it is held to at most MAX_KEEPALIVE_SECONDS,
 * so a plugin that stops is noticed within MAX × MISSED_HEARTBEATS + grace = 10 s, whatever it asked. */
export const MIN_KEEPALIVE_SECONDS = 1;
export const MAX_DECLARED_KEEPALIVE_SECONDS = 30;
export const MAX_KEEPALIVE_SECONDS = 4;
/** A session is gone once it missed this many heartbeats in a row… */
export const MISSED_HEARTBEATS = 2;
/** …plus this grace for a slow network or a busy machine. */
export const HEARTBEAT_GRACE_MS = 2_000;
/** How often a waiting tool sends MCP progress. */
export const PROGRESS_EVERY_MS = 2_000;
/** A result the plugin posts may be this large (an exported image, base64). */
export const MAX_RESULT_BODY_BYTES = 12 * 1024 * 1024;
/** Stored results stay under Firestore's 1 MiB document limit. */
export const MAX_STORED_RESULT_CHARS = 900_000;
