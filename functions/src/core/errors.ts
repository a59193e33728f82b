// The errors a domain throws. The shared layer turns them into what the caller sees:
// tool results with isError and one sentence in the seeds' style ("Error: User not found (404)"),
// resource/JSON-RPC errors, or HTTP statuses. Anything else thrown is an internal error: logged
// with the request id, answered with a generic sentence, never with a stack.
export type ErrorKind =
  | "invalid_input"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "rate_limited"
  | "timeout"
  | "unavailable"
  | "internal";

export const HTTP_STATUS: Record<ErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  timeout: 504,
  unavailable: 503,
  internal: 500,
};

export class ToolError extends Error {
  override readonly name = "ToolError";
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly extra: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }
  get status(): number {
    return HTTP_STATUS[this.kind];
  }
  /** The sentence a caller sees, e.g. `Error: User not found (404)`. */
  toText(): string {
    return `Error: ${this.message} (${this.status})`;
  }
}

export const invalidInput = (message: string) => new ToolError("invalid_input", message);
export const notFound = (what: string) => new ToolError("not_found", `${what} not found`);
export const forbidden = (message = "You do not have access to this record") => new ToolError("forbidden", message);
export const unauthenticated = (message = "Sign-in required: send Authorization: Bearer <Firebase ID token>") =>
  new ToolError("unauthenticated", message);
export const tooLarge = (message: string) => new ToolError("too_large", message);
export const conflict = (message: string) => new ToolError("conflict", message);
export const timedOut = (message: string) => new ToolError("timeout", message);
export const unavailable = (message: string) => new ToolError("unavailable", message);
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new ToolError("rate_limited", message, { retryAfterSeconds });

export const INTERNAL_ERROR_TEXT =
  "Error: Something went wrong on our side while handling this request. Try again; if it keeps failing, report the request id";

/** Any thrown value as a ToolError; unknown exceptions become a generic internal error. */
export function asToolError(err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  return new ToolError("internal", "Internal error");
}
