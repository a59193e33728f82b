// Structured logs: one JSON object per line on stderr. Cloud Logging reads `severity` and
// `message` from it; locally the emulator prints it as is. Never pass tokens or image bytes.
export type Severity = "DEBUG" | "INFO" | "WARNING" | "ERROR";

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

const quiet = process.env.MCP_LOG_LEVEL === "error";

function write(severity: Severity, message: string, fields: Record<string, unknown>): void {
  if (quiet && severity !== "ERROR") return;
  const entry = { severity, message, time: new Date().toISOString(), ...fields };
  process.stderr.write(JSON.stringify(entry, errorReplacer) + "\n");
}

// Errors become {name, message, stack} so an unexpected exception is diagnosable in the logs
// (and only in the logs: responses never carry a stack).
function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  return {
    debug: (m, f) => write("DEBUG", m, { ...base, ...f }),
    info: (m, f) => write("INFO", m, { ...base, ...f }),
    warn: (m, f) => write("WARNING", m, { ...base, ...f }),
    error: (m, f) => write("ERROR", m, { ...base, ...f }),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}

export const log = createLogger();
