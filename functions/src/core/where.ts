// Where this code runs, decided once: deployed (Cloud Run), the Functions emulator or the local
// front, or a script on a developer's machine; the region and the local front's port.

/** The one region every function is deployed to (and the path segment of local function URLs). */
export const REGION = "us-central1";

/** A function's path on the Functions emulator and `npm start`'s front: /<project>/<region>/<function>. */
export const localFunctionPath = (project: string, name: string): string => `/${project}/${REGION}/${name}`;

/** The port `npm start`'s front serves the functions on (shifted by MCP_PORT_OFFSET). */
export const FRONT_PORT = 5001;

/** The function this process serves, when a host says (the framework's FUNCTION_TARGET, Cloud Run's K_SERVICE). */
export const servedFunction = (env: NodeJS.ProcessEnv = process.env): string | undefined => env.FUNCTION_TARGET ?? env.K_SERVICE;

/** Served by the Functions emulator or `npm start`'s front (both set FUNCTIONS_EMULATOR). */
export const isEmulator = (env: NodeJS.ProcessEnv = process.env): boolean => env.FUNCTIONS_EMULATOR === "true";

/**
 * Production: on Cloud Run (which sets K_SERVICE) outside the emulator, or a script run with
 * MCP_TARGET=production (kb:import, token): Google's services then, never a local stand-in.
 */
export const isDeployed = (env: NodeJS.ProcessEnv = process.env): boolean => (!!env.K_SERVICE && !isEmulator(env)) || env.MCP_TARGET === "production";
