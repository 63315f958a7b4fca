import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createGoogleAdapter, type GoogleAdapterOptions } from "./google-adapter";

export { createGoogleAdapter, type GoogleAdapterOptions } from "./google-adapter";

/** The adapter's settings from the environment; null when GEMINI_API_KEY is unset. */
export function googleFromEnv(config: Env = env()): GoogleAdapterOptions | null {
  if (!config.GEMINI_API_KEY) return null;
  return { apiKey: config.GEMINI_API_KEY, baseUrl: config.GEMINI_BASE_URL, allowLoopback: config.PROVIDER_ALLOW_LOOPBACK };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when the Gemini API is not configured. */
export function getGoogleAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = googleFromEnv();
    instance = options ? createGoogleAdapter(options) : null;
  }
  return instance;
}
