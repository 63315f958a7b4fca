import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createByteplusAdapter, type ByteplusAdapterOptions } from "./byteplus-adapter";

export { createByteplusAdapter, type ByteplusAdapterOptions } from "./byteplus-adapter";

/** The adapter's settings from the environment; null when ARK_API_KEY is unset. */
export function byteplusFromEnv(config: Env = env()): ByteplusAdapterOptions | null {
  if (!config.ARK_API_KEY) return null;
  return { apiKey: config.ARK_API_KEY, baseUrl: config.ARK_BASE_URL };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when BytePlus ModelArk is not configured. */
export function getByteplusAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = byteplusFromEnv();
    instance = options ? createByteplusAdapter(options) : null;
  }
  return instance;
}
