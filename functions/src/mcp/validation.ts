// Input validation with messages an agent can act on in one try. The SDK's own validation
// answers with zod's raw issue list; instead the SDK gets a pass-through schema (same JSON Schema
// in tools/list) and the tool wrapper validates with the domain's zod schema, phrasing each issue
// as "<argument> must be …".
import { z } from "zod";
import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { invalidInput, type ToolError } from "../core/errors.js";

const passThroughs = new WeakMap<z.ZodType, StandardSchemaWithJSON>();

/**
 * The domain's schema as the SDK sees it: its JSON Schema, but every value accepted. Made once per
 * schema, with the JSON Schema converted once, since a server is built for every request.
 */
export function passThrough(schema: z.ZodType): StandardSchemaWithJSON {
  let wrapped = passThroughs.get(schema);
  if (!wrapped) {
    const std = schema["~standard"] as unknown as StandardSchemaWithJSON["~standard"];
    const converted = new Map<string, Record<string, unknown>>();
    const memo =
      (io: "input" | "output") =>
      (options: { target: string }): Record<string, unknown> => {
        const key = `${io}:${options.target}`;
        if (!converted.has(key)) converted.set(key, std.jsonSchema[io](options as never) as Record<string, unknown>);
        return converted.get(key)!;
      };
    wrapped = {
      "~standard": {
        version: 1,
        vendor: "mcp-suite",
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: memo("input"), output: memo("output") },
      },
    } as unknown as StandardSchemaWithJSON;
    passThroughs.set(schema, wrapped);
  }
  return wrapped;
}

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return article(typeof value);
}

// Phrases without the argument name; formatIssue puts the name in front.
function phrase(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (input === undefined) return "is required";
      return `must be ${article(issue.expected === "int" ? "integer" : issue.expected)}, not ${describeType(input)}`;
    case "too_small": {
      const n = Number(issue.minimum);
      if (issue.origin === "string") return n === 1 ? "must not be empty" : `must be at least ${n} characters`;
      if (issue.origin === "array") return `must have at least ${n} item${n === 1 ? "" : "s"}`;
      return issue.inclusive === false ? `must be greater than ${n}` : `must be at least ${n}`;
    }
    case "too_big": {
      const n = Number(issue.maximum);
      if (issue.origin === "string") return `must be at most ${n} characters`;
      if (issue.origin === "array") return `must have at most ${n} item${n === 1 ? "" : "s"}`;
      return issue.inclusive === false ? `must be less than ${n}` : `must be at most ${n}`;
    }
    case "invalid_value":
      return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    case "unrecognized_keys":
      return `has unknown argument${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    default:
      return issue.message;
  }
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join(".");
  const message = issue.message;
  if (path && message.startsWith(path)) return message;
  return path ? `${path} ${message}` : `arguments ${message}`;
}

// zod calls this for issues that have no message of their own (the schema's `error` wins).
z.config({ customError: (issue) => phrase(issue as z.core.$ZodIssue, issue.input) });

/** Validates against a domain schema; throws an invalid-input ToolError that names each problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const malformed = malformedString(value);
  if (malformed) throw invalidInput(`Invalid input: ${malformed} contains a lone UTF-16 surrogate (half of an emoji or other character); send well-formed Unicode text`);
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw inputError(result.error);
}

export function inputError(error: z.ZodError): ToolError {
  const parts = [...new Set(error.issues.map(formatIssue))];
  return invalidInput(`Invalid input: ${parts.join("; ")}`);
}

/**
 * The path of the first string (value or key) in `value` that is not well-formed UTF-16, e.g.
 * "uid" or "tags.2". Such strings cannot be stored or looked up (Firestore refuses them as
 * document ids, and UTF-8 cannot encode them), so they are refused before a handler sees them.
 * Iterative: the shared layer has already bounded nesting, but this must never overflow the stack.
 */
export function malformedString(value: unknown, root = "arguments"): string | undefined {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (!wellFormed(v)) return path || root;
    } else if (v && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (!wellFormed(k)) return path || root;
        stack.push([child, at]);
      }
    }
  }
  return undefined;
}

/** No lone UTF-16 surrogate (in `u` mode a paired surrogate is one code point, a lone one is Cs). */
export const wellFormed = (s: string): boolean => !/\p{Cs}/u.test(s);

// ---- Document id arguments ---------------------------------------------------------------------

// An id argument becomes one segment of a Firestore path (users/{uid}/sessions/{id}): with a "/" it
// would address another document (uid "x/sessions/y"); ".", "..", __name__ and ids that are not
// well-formed Unicode are refused by Firestore (an internal error instead of an answer). All are
// refused here, up front, with a sentence saying what an id must look like.
const ID_SHAPE = /^[^/]+$/;
const RESERVED_ID = /^(\.|\.\.|__.*__)$/;

/** A Firestore document id argument (e.g. a uid, session id or chunk id). */
export function documentIdArg(name: string, what: string, maxLength = 128) {
  const error = `${name} must be ${what}: at most ${maxLength} characters, no "/", not "." or "..", and not of the form __name__ (reserved by Firestore)`;
  return z
    .string()
    .min(1, { abort: true }) // empty or too long: that one message, not the shape's as well
    .max(maxLength, { abort: true })
    .regex(ID_SHAPE, { error }) // also the pattern clients see in the JSON Schema
    .refine((v) => !RESERVED_ID.test(v), { error })
    .refine(wellFormed, { error: `${name} must be well-formed Unicode: it contains a lone UTF-16 surrogate` });
}

/** Whether `id` can be used as a Firestore document id as-is (for ids from URIs and cursors). */
export function usableDocumentId(id: string, maxLength = 128): boolean {
  return id.length > 0 && id.length <= maxLength && ID_SHAPE.test(id) && !RESERVED_ID.test(id) && wellFormed(id);
}
