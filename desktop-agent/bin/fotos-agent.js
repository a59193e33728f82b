#!/usr/bin/env node
// The `fotos-agent` command: pair | run | status | pause | resume | autostart (see ../README.md).
import "../dist/cli.js";
