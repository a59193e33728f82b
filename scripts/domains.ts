// The domains this checkout serves: the folders of functions/src/domains (each one an exported
// function in functions/src/index.ts). Scripts list them from here instead of keeping a copy.
import { readdirSync } from "node:fs";

export const DOMAINS_DIR = new URL("../functions/src/domains/", import.meta.url);

export const DOMAINS: string[] = readdirSync(DOMAINS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
