// Structured logs on stderr, one JSON object a line. Never pass secrets, raw keys or raw IPs here.

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function threshold() {
  const configured = (process.env.LOG_LEVEL ?? "info") as Level | "silent";
  return order[configured] ?? order.info;
}

function write(level: Level, message: string, fields?: Record<string, unknown>) {
  if (order[level] < threshold()) return;
  process.stderr.write(JSON.stringify({ level, time: new Date().toISOString(), message, ...fields }) + "\n");
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
