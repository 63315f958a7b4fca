import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createReplicateAdapter, type ReplicateAdapterOptions } from "./replicate-adapter";

export { createReplicateAdapter, type ReplicateAdapterOptions } from "./replicate-adapter";

/** The adapter's settings from the environment; null when REPLICATE_API_TOKEN is unset. */
export function replicateFromEnv(config: Env = env()): ReplicateAdapterOptions | null {
  if (!config.REPLICATE_API_TOKEN) return null;
  return {
    token: config.REPLICATE_API_TOKEN,
    baseUrl: config.REPLICATE_API_BASE_URL,
    webhookSecret: config.REPLICATE_WEBHOOK_SECRET ?? null,
  };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when Replicate is not configured. */
export function getReplicateAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = replicateFromEnv();
    instance = options ? createReplicateAdapter(options) : null;
  }
  return instance;
}
