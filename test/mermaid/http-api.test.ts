// POST /api/verify | /api/render | /api/svg: same logic and messages as the tools, JSON in and
// out, and 100 requests per hour per client IP (Firestore-backed), answered with 429 + Retry-After.
import { randomInt } from "node:crypto";
import { describe, expect, test } from "vitest";
import { callTool, connect } from "../support/mcp.js";
import { functionUrl } from "../support/emulators.js";
import { parseSvgFile } from "./corpus.js";

// The function takes the last X-Forwarded-For entry as the client address: each test gets its
// own bucket (documentation ranges, random per run so earlier runs never interfere).
const freshIp = () => `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}::${randomInt(0xffff).toString(16)}`;

async function api(path: string, body: unknown, ip: string, method = "POST"): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(functionUrl("mermaid", path), {
    method,
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

// The limiter counts per clock hour (plus a share of the previous one): a run whose requests
// straddle the hour lands in two windows, where the counts are not those of one hour. Such a run is
// told apart by the clock (this machine's, the function's too) and done again with a fresh client,
// which then lies within one hour: no waiting, and every assertion is on a run inside one window.
const hourOf = (ms: number) => Math.floor(ms / 3_600_000);
async function withinOneHour<T>(run: (ip: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const started = hourOf(Date.now());
    const result = await run(freshIp());
    if (hourOf(Date.now()) === started) return result;
  }
  throw new Error("two runs in a row straddled an hour: each took longer than an hour");
}

describe("the HTTP API", () => {
  const ip = freshIp();

  test("/api/verify: ok, syntax error with position, and the validation messages", async () => {
    expect(await api("/api/verify", { code: "graph TD\nA-->B" }, ip)).toMatchObject({ status: 200, body: { ok: true } });
    const bad = await api("/api/verify", { code: "sequenceDiagram\n    Alice->>Bob Hello Bob\n" }, ip);
    expect(bad.status).toBe(200);
    expect(bad.body.ok).toBe(false);
    expect(bad.body.error).toMatch(/^Invalid Mermaid syntax at line 2, column \d+: .*\. Line 2: "    Alice->>Bob Hello Bob"$/);
    expect(await api("/api/verify", { code: "" }, ip)).toMatchObject({ status: 400, body: { error: "Invalid input: code must be a non-empty string" } });
    expect(await api("/api/verify", {}, ip)).toMatchObject({ status: 400, body: { error: "Invalid input: code must be a non-empty string" } });
    expect(await api("/api/verify", { code: "x".repeat(50_001) }, ip)).toMatchObject({ status: 413, body: { error: "Code exceeds maximum length of 50KB" } });
  });

  test("/api/render and /api/svg return the same sanitized SVG; svg adds the filename", async () => {
    const code = 'graph TD\n  A["<script>alert(1)</script>Start"] --> B[End]';
    const r = await api("/api/render", { code }, ip);
    expect(r.status).toBe(200);
    const svg = r.body.svg as string;
    expect(Object.keys(r.body)).toEqual(["svg"]);
    parseSvgFile(svg);
    expect(svg).not.toMatch(/<script/i);
    expect(svg).toContain("End");
    const s = await api("/api/svg", { code, theme: "forest" }, ip);
    expect(s.status).toBe(200);
    expect(s.body.filename).toMatch(/^diagram-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.svg$/);
    expect(s.body.svg).not.toBe(svg); // another theme
    expect((await api("/api/svg", { code }, ip)).body.svg).toBe(svg);
    const invalid = await api("/api/render", { code: "flowchat TD\n A-->B" }, ip);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/^Invalid Mermaid syntax: no diagram type detected/);
  });

  test("only POST is allowed", async () => {
    const res = await api("/api/verify", undefined, ip, "GET");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  test(
    "100 requests in an hour are served, the 101st gets 429 with Retry-After; other clients and MCP are not limited",
    async () => {
      // Real requests, counted in Firestore (shared by every instance of the function).
      const { limited, ok, refused, renderAfter } = await withinOneHour(async (limited) => {
        let ok = 0;
        for (let i = 0; i < 100; i++) if ((await api(i % 2 ? "/api/verify" : "/api/svg", { code: "graph TD\nA-->B" }, limited)).status === 200) ok++;
        const refused = await api("/api/verify", { code: "graph TD\nA-->B" }, limited);
        const renderAfter = await api("/api/render", { code: "graph TD\nA-->B" }, limited);
        return { limited, ok, refused, renderAfter };
      });
      expect(ok).toBe(100);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(2 * 3600);
      expect(refused.body.error).toBe(`Rate limit exceeded: at most 100 requests per hour per client. Try again in ${retryAfter} seconds`);
      expect(renderAfter.status).toBe(429);

      // Someone else is still served.
      expect((await api("/api/verify", { code: "graph TD\nA-->B" }, freshIp())).status).toBe(200);

      // MCP from the same address is not rate limited (only the HTTP API is).
      const client = await connect("mermaid", { headers: { "x-forwarded-for": limited } });
      try {
        const result = await callTool(client, "verify", { code: "graph TD\nA-->B" });
        expect(result.structuredContent).toEqual({ ok: true });
      } finally {
        await client.close();
      }
    },
    300_000, // done twice when the first run straddles the hour
  );
});
