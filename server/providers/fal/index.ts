import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createFalAdapter, type FalAdapterOptions } from "./fal-adapter";

export { createFalAdapter, type FalAdapterOptions } from "./fal-adapter";

/** The adapter's settings from the environment; null when FAL_KEY is unset. */
export function falFromEnv(config: Env = env()): FalAdapterOptions | null {
  if (!config.FAL_KEY) return null;
  return { token: config.FAL_KEY, baseUrl: config.FAL_QUEUE_BASE_URL, jwksUrl: config.FAL_JWKS_URL, apiBaseUrl: config.FAL_API_BASE_URL };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when fal is not configured. */
export function getFalAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = falFromEnv();
    instance = options ? createFalAdapter(options) : null;
  }
  return instance;
}
