import { readFileSync } from "node:fs";

/** This package's version, sent with every heartbeat. */
export const AGENT_VERSION: string = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
