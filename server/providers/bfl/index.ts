import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createBflAdapter, type BflAdapterOptions } from "./bfl-adapter";

export { createBflAdapter, type BflAdapterOptions } from "./bfl-adapter";

/** The adapter's settings from the environment; null when BFL_API_KEY is unset. */
export function bflFromEnv(config: Env = env()): BflAdapterOptions | null {
  if (!config.BFL_API_KEY) return null;
  return { apiKey: config.BFL_API_KEY, baseUrl: config.BFL_BASE_URL, webhookSecret: config.BFL_WEBHOOK_SECRET ?? null };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when Black Forest Labs is not configured. */
export function getBflAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = bflFromEnv();
    instance = options ? createBflAdapter(options) : null;
  }
  return instance;
}
