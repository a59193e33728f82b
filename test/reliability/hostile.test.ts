// Hostile input, table-driven over every domain: nesting, sizes, encodings, ids and dates, sent
// raw (no client library would send them). Each must be answered with a 4xx JSON-RPC error or an
// isError sentence that says what to do: never HTTP 500, never a stack trace or a server path.
import { beforeAll, describe, expect, test } from "vitest";
import { createUser } from "../support/emulators.js";
import { rawPost } from "../support/mcp.js";
import { MCP_FUNCTIONS, type McpFunctionName } from "../../functions/src/core/manifest.js";

// Every function with an MCP endpoint, from the manifests: a new one fails the typecheck of `someTool` below.
const DOMAINS = MCP_FUNCTIONS;
type Domain = McpFunctionName;
const headers = Object.fromEntries(DOMAINS.map((d) => [d, {}])) as Record<Domain, Record<string, string>>;
const MCP = { accept: "application/json, text/event-stream" };

beforeAll(async () => {
  const user = await createUser();
  for (const d of DOMAINS) headers[d] = { ...MCP, authorization: `Bearer ${user.token}` };
});

const nest = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const call = (name: string, args: string, id: string | number = 1) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${args}}}`;
// A tool of each domain that takes a string (for arguments that must be refused before it runs).
const someTool: Record<Domain, { name: string; field: string }> = {
  mermaid: { name: "verify", field: "code" },
  dermal: { name: "get_user_status", field: "uid" },
  knowledge: { name: "get_related_chunks", field: "chunk_id" },
  fotos: { name: "ocr_screenshot", field: "screenshot_id" },
  figma: { name: "get_node_info", field: "nodeId" },
};

/** The JSON-RPC message of a JSON or single-event SSE response. */
function message(text: string): { error?: { code: number; message: string }; result?: { isError?: boolean; content?: { text?: string }[] } } | null {
  const data = text.trimStart().startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1];
  try {
    return JSON.parse(data ?? "null");
  } catch {
    return null;
  }
}

// (The Functions framework answers unparseable JSON with its own small "Bad Request" page before
// any of our code runs; with NODE_ENV=production, set in functions/.env, that page has no stack.)
const LEAKS = [/\n\s+at /, /node_modules/, /\/work\//, /\.(ts|js):\d+/, /SyntaxError|TypeError|RangeError/];

async function send(domain: Domain, body: string | Uint8Array, extra: Record<string, string> = {}) {
  const res = await rawPost(domain, body as string, { ...headers[domain], ...extra });
  const text = await res.text();
  for (const leak of LEAKS) expect(text, `${domain} leaked internals: ${text.slice(0, 300)}`).not.toMatch(leak);
  expect(res.status, text.slice(0, 300)).toBeLessThan(500);
  return { status: res.status, retryAfter: res.headers.get("retry-after"), text, msg: message(text) };
}

interface ProtocolCase {
  name: string;
  body: (d: Domain) => string | Uint8Array;
  headers?: Record<string, string>;
  status: number;
  code?: number;
  says?: RegExp;
}

const protocolCases: ProtocolCase[] = [
  { name: "5,000 levels of nesting in arguments", body: (d) => call(someTool[d].name, `{"x":${nest(5000)}}`), status: 400, code: -32600, says: /nests more than 64 levels/ },
  { name: "5,000 levels in params", body: () => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${nest(5000)}}}`, status: 400, code: -32600 },
  { name: "5,000 levels in the id", body: () => `{"jsonrpc":"2.0","id":${nest(5000)},"method":"tools/list"}`, status: 400, code: -32600 },
  { name: "100,000 levels", body: () => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${nest(100_000)}}}`, status: 400, code: -32600 },
  { name: "65 levels (one over the bound)", body: () => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${nest(63)}}}`, status: 400, code: -32600 },
  {
    name: "initialize without capabilities or clientInfo",
    body: () => `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
    status: 400,
    code: -32602,
    says: /params\.capabilities must be an object.*params\.clientInfo must be an object with name and version/,
  },
  { name: "initialize with params that are not an object", body: () => `{"jsonrpc":"2.0","id":1,"method":"initialize","params":[1]}`, status: 400, code: -32602 },
  { name: "tools/call without a name", body: () => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}`, status: 400, code: -32602, says: /params\.name must be/ },
  { name: "tools/call with arguments that are an array", body: (d) => call(someTool[d].name, "[1,2]"), status: 400, code: -32602, says: /params\.arguments must be an object/ },
  { name: "resources/read without a uri", body: () => `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{}}`, status: 400, code: -32602 },
  { name: "a body over 1 MB", body: (d) => call(someTool[d].name, JSON.stringify({ pad: "x".repeat(1_100_000) })), status: 413, says: /at most 1\.0 MB/ },
  { name: "bytes that are not UTF-8, as JSON", body: () => Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0x7d]), status: 400 },
  { name: "bytes that are not UTF-8, as text", body: () => Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0x7d]), headers: { "content-type": "text/plain" }, status: 400, code: -32700 },
  {
    name: "a charset JSON does not allow",
    body: () => Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "latin1"),
    headers: { "content-type": "application/json; charset=koi8-r" },
    status: 415,
  },
  { name: "a JSON string instead of a request", body: () => `"tools/list"`, headers: { "content-type": "text/plain" }, status: 400, code: -32600 },
];

describe.each(DOMAINS)("%s: hostile protocol input", (domain) => {
  test.each(protocolCases)("$name → $status", async (c) => {
    const answer = await send(domain, c.body(domain), c.headers);
    expect(answer.status).toBe(c.status);
    if (c.code !== undefined) expect(answer.msg?.error?.code).toBe(c.code);
    if (c.says) expect(answer.msg?.error?.message ?? answer.text).toMatch(c.says);
  });

  test("60 levels of nesting (within the bound) are served", async () => {
    const answer = await send(domain, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"x":${nest(60)}}}}`);
    expect(answer.status).toBe(200);
    expect(answer.msg?.result).toBeDefined();
  });

  test("UTF-16 with a UTF-16 charset is decoded and served", async () => {
    const body = Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "utf16le");
    const answer = await send(domain, body, { "content-type": "application/json; charset=utf-16le" });
    expect(answer.status).toBe(200);
    expect(answer.msg?.result).toBeDefined();
  });

  test("a JSON-RPC id with a lone surrogate is answered, not a server error", async () => {
    const answer = await send(domain, `{"jsonrpc":"2.0","id":"a\\ud800","method":"tools/list"}`);
    expect([200, 400]).toContain(answer.status);
  });
});

interface ToolCase {
  name: string;
  args: (d: Domain) => string;
  says: RegExp;
}

const toolCases: ToolCase[] = [
  { name: "a lone surrogate in a string argument", args: (d) => `{"${someTool[d].field}":"abc\\ud800"}`, says: /contains a lone UTF-16 surrogate/ },
  { name: "a lone low surrogate inside a list", args: (d) => `{"${someTool[d].field}":"ok","tags":["x","\\udfff"]}`, says: /tags\.1 contains a lone UTF-16 surrogate/ },
];

describe.each(DOMAINS)("%s: hostile tool arguments", (domain) => {
  test.each(toolCases)("$name → isError", async (c) => {
    const answer = await send(domain, call(someTool[domain].name, c.args(domain)));
    expect(answer.status).toBe(200);
    expect(answer.msg?.result?.isError).toBe(true);
    expect(answer.msg?.result?.content?.[0]?.text).toMatch(c.says);
  });
});

// Ids and dates, per tool: the one sentence that says what the argument must be.
const idCases: { domain: Domain; tool: string; args: Record<string, unknown>; says: RegExp }[] = [
  { domain: "dermal", tool: "get_user_status", args: { uid: "a\ud800b" }, says: /lone UTF-16 surrogate/ },
  { domain: "dermal", tool: "get_user_status", args: { uid: "__proto__" }, says: /uid must be a Firebase Auth user id: .*__name__/ },
  { domain: "dermal", tool: "get_user_status", args: { uid: ".." }, says: /uid must be a Firebase Auth user id/ },
  { domain: "dermal", tool: "get_user_status", args: { uid: "x/sessions/y" }, says: /no "\/"/ },
  { domain: "dermal", tool: "get_user_status", args: { uid: "u".repeat(10_000) }, says: /uid must be at most 128 characters/ },
  { domain: "dermal", tool: "get_analysis_detail", args: { sessionId: "__x__" }, says: /must be .*__name__/ },
  { domain: "dermal", tool: "export_zone_history", args: { uid: "me", from: "2024-02-30" }, says: /from must be a date \(YYYY-MM-DD\) or an ISO 8601 timestamp with a time zone/ },
  { domain: "dermal", tool: "export_zone_history", args: { uid: "me", to: "2023-02-29" }, says: /to must be a date \(YYYY-MM-DD\) or an ISO 8601 timestamp with a time zone/ },
  { domain: "dermal", tool: "export_zone_history", args: { uid: "me", from: "2024-04-31T10:00:00Z" }, says: /from must be a date \(YYYY-MM-DD\) or an ISO 8601 timestamp with a time zone/ },
  { domain: "dermal", tool: "export_zone_history", args: { uid: "me", from: "2024-01-01T24:00:00Z" }, says: /from must be a date \(YYYY-MM-DD\) or an ISO 8601 timestamp with a time zone/ },
  { domain: "knowledge", tool: "get_related_chunks", args: { chunk_id: "__x__" }, says: /chunk_id must be a chunk_id from a search result/ },
  { domain: "knowledge", tool: "get_related_chunks", args: { chunk_id: "a/b" }, says: /no "\/"/ },
  { domain: "knowledge", tool: "search_semantic", args: { query: "x", date_from: "2024-02-30" }, says: /date_from must be a date \(YYYY-MM-DD\) or an ISO 8601 timestamp with a time zone/ },
  { domain: "knowledge", tool: "search_semantic", args: { query: "x", date_to: "2024-13-01" }, says: /date_to must be a date \(YYYY-MM-DD\) or an ISO 8601 timestamp with a time zone/ },
  { domain: "mermaid", tool: "verify", args: { code: "x".repeat(900_000) }, says: /\(4\d\d\)/ },
  { domain: "fotos", tool: "ocr_screenshot", args: { screenshot_id: "../../etc/passwd" }, says: /^Error: Screenshot not found: "\.\.\/\.\.\/etc\/passwd"\. list_screenshots shows the ids of your screenshots \(404\)$/ },
  { domain: "fotos", tool: "annotate_screenshot", args: { screenshot_id: "x".repeat(10_000), annotations: [] }, says: /screenshot_id must be at most 100 characters/ },
  { domain: "figma", tool: "get_node_info", args: { nodeId: "__proto__" }, says: /nodeId must be a Figma node id such as "12:34"/ },
  { domain: "figma", tool: "get_nodes_info", args: { nodeIds: Array.from({ length: 10_000 }, () => "1:2") }, says: /nodeIds must have at most \d+ items/ },
];

describe("ids, sizes and dates are refused up front with the sentence that says what they must be", () => {
  test.each(idCases)("$domain $tool $args.uid$args.sessionId$args.chunk_id$args.from$args.to$args.date_from$args.date_to$args.nodeId$args.screenshot_id", async (c) => {
    const args = JSON.stringify(c.args).replace(/\\ud800/g, "\\ud800"); // JSON.stringify escapes lone surrogates
    const answer = await send(c.domain, call(c.tool, args));
    expect(answer.status).toBe(200);
    expect(answer.msg?.result?.isError, answer.text.slice(0, 300)).toBe(true);
    const text = answer.msg?.result?.content?.[0]?.text ?? "";
    expect(text).toMatch(c.says);
    expect(text).not.toMatch(/Something went wrong/);
  });

  test("a resource URI with a broken escape is invalid params, not a server error", async () => {
    const answer = await send("knowledge", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"kxhub://chunk/%ED%A0%80"}}`);
    expect(answer.msg?.error?.code).toBe(-32602);
  });
});
