import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createRunwayAdapter, type RunwayAdapterOptions } from "./runway-adapter";

export { createRunwayAdapter, RUNWAY_API_VERSION, type RunwayAdapterOptions } from "./runway-adapter";

/** The adapter's settings from the environment; null when RUNWAYML_API_SECRET is unset. */
export function runwayFromEnv(config: Env = env()): RunwayAdapterOptions | null {
  if (!config.RUNWAYML_API_SECRET) return null;
  return { apiSecret: config.RUNWAYML_API_SECRET, baseUrl: config.RUNWAY_BASE_URL };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when Runway is not configured. */
export function getRunwayAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = runwayFromEnv();
    instance = options ? createRunwayAdapter(options) : null;
  }
  return instance;
}
