// The bodies the Figma plugin sends to the figma function (contracts/figma-plugin.ts has the
// routes), as the schemas the function validates them with; the plugin imports only their types.
import { z } from "zod";
import { DEFAULT_KEEPALIVE_SECONDS, MAX_DECLARED_KEEPALIVE_SECONDS, MAX_KEEPALIVE_SECONDS, MIN_KEEPALIVE_SECONDS } from "./figma-plugin.js";

const text = (max: number) => z.string().trim().max(max);
const roomId = z.string().max(64);

/** Who has which file open where: what list_sessions shows. */
export const sessionContextSchema = z.object({
  figmaUserId: text(64).min(1),
  figmaUserName: text(200).default(""),
  fileKey: text(128).default(""),
  fileName: text(300).min(1),
  pageId: text(64).default(""),
  pageName: text(300).default(""),
});
export type SessionContext = z.output<typeof sessionContextSchema>;

export const registerSessionSchema = sessionContextSchema.extend({
  roomId: roomId.optional().describe("The room this window had before (resumed when it is still this device's)"),
  keepaliveSeconds: z
    .number()
    .int()
    .min(MIN_KEEPALIVE_SECONDS)
    .max(MAX_DECLARED_KEEPALIVE_SECONDS)
    .default(DEFAULT_KEEPALIVE_SECONDS)
    .transform((s) => Math.min(s, MAX_KEEPALIVE_SECONDS)),
});
export type RegisterSession = z.input<typeof registerSessionSchema>;

export const commandsQuerySchema = z.object({ room: roomId });
export type CommandsQuery = z.input<typeof commandsQuerySchema>;

export const heartbeatSchema = z.object({
  roomId,
  fileName: text(300).min(1).optional(),
  pageId: text(64).optional(),
  pageName: text(300).optional(),
});
export type Heartbeat = z.input<typeof heartbeatSchema>;

export const resultSchema = z.object({
  roomId,
  commandId: z.string().max(64),
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: z.object({ code: z.string().max(40).optional(), message: z.string().max(2000) }).optional(),
});
export type ResultRequest = z.input<typeof resultSchema>;

export const closeSchema = z.object({ roomId });
export type CloseRequest = z.input<typeof closeSchema>;
