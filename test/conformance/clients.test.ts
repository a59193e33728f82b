// A third-party client against every served MCP function, as docs/clients.md tells people to run
// it: the MCP Inspector's CLI lists the tools over Streamable HTTP, with the Authorization header
// (a Firebase ID token) where the function needs sign-in; without it the Inspector is sent to sign in.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { createUser, functionUrl, type TestUser } from "../support/emulators.js";
import { SIGNED_IN_FUNCTIONS } from "../../functions/src/core/manifest.js";

const run = promisify(execFile);
const SIGNED_IN = SIGNED_IN_FUNCTIONS;

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

async function inspector(domain: string, headers: string[] = []) {
  const args = ["--cli", functionUrl(domain), "--transport", "http", "--method", "tools/list", ...headers.flatMap((h) => ["--header", h])];
  return run("mcp-inspector", args, { timeout: 90_000 });
}

test("mermaid (public): the Inspector CLI lists its tools without credentials", async () => {
  const { stdout } = await inspector("mermaid");
  expect((JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain("render");
});

describe.each(SIGNED_IN)("%s (signed in)", (domain) => {
  test("the Inspector CLI lists its tools with --header \"Authorization: Bearer <ID token>\"", async () => {
    const { stdout } = await inspector(domain, [`Authorization: Bearer ${user.token}`]);
    expect((JSON.parse(stdout) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
  });

  // The 401 challenge sends the Inspector into its own OAuth sign-in, which needs a terminal.
  test("without the header the Inspector CLI is sent to sign in (OAuth) and lists nothing", async () => {
    const failure = await inspector(domain).then(
      () => undefined,
      (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ""}${err.stderr ?? ""}`,
    );
    expect(failure).toBeDefined();
    expect(failure).toMatch(/auth_required|OAuth/);
  });
});
