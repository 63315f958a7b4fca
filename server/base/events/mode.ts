import { env } from "../env";

// Which executor runs the functions: a real Inngest server (Cloud or self-hosted) when one is
// configured, else the embedded executor inside the server process.

export type InngestMode = "embedded" | "external";

export function inngestMode(): InngestMode {
  const config = env();
  return config.INNGEST_BASE_URL || config.INNGEST_EVENT_KEY ? "external" : "embedded";
}
