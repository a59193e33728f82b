#!/usr/bin/env node
// `fotos-mcp [--standalone | --bridged]`: the fotos MCP server over stdio, the same as `fotos-agent mcp`.
process.argv.splice(2, 0, "mcp");
await import("../dist/cli.js");
