// The functions this checkout serves, from their manifests (functions/src/core/manifest.ts; each
// one a folder of functions/src/domains and an export of functions/src/index.ts). Scripts list
// them from here instead of keeping a copy.
import { FUNCTION_NAMES } from "../functions/src/core/manifest.js";

export const DOMAINS_DIR = new URL("../functions/src/domains/", import.meta.url);

export const DOMAINS: string[] = [...FUNCTION_NAMES].sort();
