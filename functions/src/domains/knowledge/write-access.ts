// Writing to a knowledge base needs the person's consent to write: the scope the consent page shows
// as "save notes … and delete documents" (core/manifest.ts). A connection approved before that scope
// existed, or approved for reading only, stays read-only; an ID token is the person themself.
import { forbidden } from "../../core/errors.js";
import type { FUNCTIONS } from "../../core/manifest.js";
import type { SignedInContext } from "../../mcp/define.js";

export const WRITE_SCOPE = "knowledge.write" satisfies keyof typeof FUNCTIONS.knowledge.scopes;

export function requireWrite(ctx: SignedInContext): void {
  const scopes = ctx.caller.scopes;
  if (scopes.includes("*") || scopes.includes(WRITE_SCOPE)) return;
  throw forbidden("This connection may only read your knowledge base. To save notes or delete documents, connect the app again and allow it to save to your knowledge base");
}
