// Child process for bench/foundation.ts: serves one thing on 127.0.0.1:<port> the way the Functions
// framework does (express + JSON body parser with rawBody), then waits.
//   node bench/foundation-server.mjs suite <domain> <port>   our served domain (functions/lib)
//   node bench/foundation-server.mjs bare - <port>           a bare SDK server with one tool
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import express from "express";

// The SDK packages live in the functions workspace.
const fromFunctions = (name) => import(pathToFileURL(createRequire(new URL("../functions/package.json", import.meta.url)).resolve(name)).href);

const [kind, domain, port] = process.argv.slice(2);
const app = express();
app.use(express.json({ limit: "32mb", verify: (req, _res, buf) => { req.rawBody = buf; } }));

if (kind === "suite") {
  const { serveDomain } = await import("../functions/lib/http/endpoint.js");
  process.env.FUNCTION_TARGET = domain; // warm up at start, as in a Cloud Run instance
  const handler = serveDomain(domain, () => import(`../functions/lib/domains/${domain}/index.js`));
  app.all("/{*path}", handler);
} else {
  const { McpServer, createMcpHandler } = await fromFunctions("@modelcontextprotocol/server");
  const { toNodeHandler } = await fromFunctions("@modelcontextprotocol/node");
  const { z } = await fromFunctions("zod");
  const handler = toNodeHandler(
    createMcpHandler(() => {
      const server = new McpServer({ name: "bare", version: "1.0.0" });
      server.registerTool("echo", { description: "Echo", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
        content: [{ type: "text", text }],
      }));
      return server;
    }),
  );
  app.all("/{*path}", (req, res) => handler(req, res, req.body));
}
app.listen(Number(port), "127.0.0.1", () => process.stdout.write("listening\n"));
