#!/usr/bin/env node
// The `fotos-agent` command: pair | run | status | pause | resume | autostart | mcp (see docs/fotos.md).
import "../dist/cli.js";
