// A figma tool is a command relayed to one open file: resolve the session (sessions.ts), run the
// command in the plugin (relay.ts), answer with its result as structuredContent and text. Paged
// answers say so with a [truncated] marker and the cursor for the rest. The outputSchema names
// what every answer has (the session) and lets the plugin's own fields through.
import { z } from "zod";
import type { ContentBlock, ToolAnnotations } from "@modelcontextprotocol/server";
import { TRUNCATION_MARKER, jsonText } from "../../mcp/content.js";
import { type ErrorResult, type SignedInContext, type StructuredResult, type ToolDefinition } from "../../mcp/define.js";
import { tool } from "../../mcp/signed-in.js";
import { invalidInput } from "../../core/errors.js";
import { runCommand } from "./relay.js";
import { resolveSession, SessionChoice } from "./sessions.js";
import { sessionArgs } from "./schema.js";
import { resolveLinks } from "./links.js";
import type { Session } from "./store.js";

const SESSION_NOTE =
  " Works on the Figma file whose plugin session is resolved from sessionId, from the file of a pasted Figma link, or the only open one (see list_sessions). Node ids may be given as Figma links (…?node-id=12-34).";

export interface FigmaToolConfig<S extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  args: S;
  annotations: Omit<ToolAnnotations, "title"> & { readOnlyHint: boolean; openWorldHint: boolean };
  /** Turns the tool's arguments into the command's, once the session is known (default: as they are). */
  prepare?(args: Record<string, unknown>, ctx: SignedInContext): Promise<Record<string, unknown>>;
  /** Its view in the conversation (mcp/view.ts). */
  ui?: ToolDefinition["ui"];
  /** Turns the plugin's result into the tool result (default: JSON as structuredContent and text). */
  present?(result: Record<string, unknown>, session: Session): FigmaResult | Promise<FigmaResult>;
}

/** Every answer: the session it ran in, then the plugin's result fields. */
export const figmaOutput = z.looseObject({
  sessionId: z.string().describe("The room id of the Figma file the command ran in"),
  fileName: z.string().describe("That file's name"),
  truncated: z.boolean().optional().describe("True when the answer was cut (see nextCursor or the text)"),
  nextCursor: z.string().optional().describe("Pass as cursor for the next page"),
});
type FigmaResult = StructuredResult<z.input<typeof figmaOutput>>;

export function figmaTool<S extends z.ZodRawShape>(config: FigmaToolConfig<S>): ToolDefinition {
  const inputSchema = z.object({ ...config.args, ...sessionArgs });
  return tool(
    {
      name: config.name,
      title: config.title,
      description: config.description + SESSION_NOTE,
      inputSchema,
      outputSchema: figmaOutput,
      annotations: config.annotations,
      ...(config.ui ? { ui: config.ui } : {}),
    },
    async (input: Record<string, unknown>, ctx: SignedInContext): Promise<FigmaResult | ErrorResult> => {
      const { sessionId, roomId, ...linked } = input as { sessionId?: string; roomId?: string } & Record<string, unknown>;
      if (sessionId && roomId && sessionId !== roomId) throw invalidInput("sessionId and roomId name different rooms: pass only one");
      // Pasted Figma links become node ids; their file picks the session.
      const { args, link } = resolveLinks(linked);
      try {
        const session = await resolveSession(ctx, sessionId ?? roomId, link);
        const command = config.prepare ? await config.prepare(args, ctx) : args;
        const raw = await runCommand(ctx, session, config.name, command);
        const result = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : { result: raw };
        return config.present ? await config.present(result, session) : present(result, session);
      } catch (err) {
        if (err instanceof SessionChoice) return err.toResult();
        throw err;
      }
    },
  ) as unknown as ToolDefinition;
}

/** The default answer: the session it ran in, then the plugin's result. */
export function present(result: Record<string, unknown>, session: Session, extra: ContentBlock[] = []): FigmaResult {
  const structured = { sessionId: session.roomId, fileName: session.fileName, ...result };
  let text = jsonText(structured);
  if (result.truncated === true) {
    text += result.nextCursor
      ? `\n\n${TRUNCATION_MARKER} More items exist: call ${"again"} with the same arguments and cursor "${String(result.nextCursor)}" for the next page.`
      : `\n\n${TRUNCATION_MARKER} ${String(result.truncatedNote ?? "Some nodes were left out: ask for a specific node id (get_node_info) to see deeper levels.")}`;
  }
  return { data: structured, text, content: extra };
}
