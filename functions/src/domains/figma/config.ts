// Timing of the relay, from the environment (checked once at cold start). Defaults suit a person
// working in Figma; tests and the bench may set them smaller.
import { envNumber } from "../../core/env.js";

/** How long a tool waits for the plugin's answer before giving up. */
export const COMMAND_TIMEOUT_MS = envNumber("FIGMA_COMMAND_TIMEOUT_MS", 60_000, { min: 500 });
/** Longest a plugin's poll is held open when no command is waiting (under Cloud Run's and browsers' idle
 * limits); never longer than the session's keep-alive, since each poll is also its heartbeat. */
export const POLL_HOLD_MS = envNumber("FIGMA_POLL_HOLD_MS", 25_000, { min: 100 });
// The keep-alive bounds and the result size are the plugin's contract: contracts/figma-plugin.ts.
/** A session is gone once it missed this many heartbeats in a row… */
export const MISSED_HEARTBEATS = 2;
/** …plus this grace for a slow network or a busy machine. */
export const HEARTBEAT_GRACE_MS = 2_000;
/** How often a waiting tool sends MCP progress. */
export const PROGRESS_EVERY_MS = 2_000;
/** Files one plugin (device) may have open on the server at once: each open file is a room holding a poll. */
export const MAX_ROOMS_PER_DEVICE = envNumber("FIGMA_MAX_ROOMS_PER_DEVICE", 10, { min: 1 });
/** Stored results stay under Firestore's 1 MiB document limit. */
export const MAX_STORED_RESULT_CHARS = 900_000;
