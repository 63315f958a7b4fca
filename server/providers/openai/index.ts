import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createOpenAIAdapter, type OpenAIAdapterOptions } from "./openai-adapter";

export { createOpenAIAdapter, type OpenAIAdapterOptions } from "./openai-adapter";

/** The adapter's settings from the environment; null when OPENAI_API_KEY is unset. */
export function openaiFromEnv(config: Env = env()): OpenAIAdapterOptions | null {
  if (!config.OPENAI_API_KEY) return null;
  return { token: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when OpenAI is not configured. */
export function getOpenAIAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = openaiFromEnv();
    instance = options ? createOpenAIAdapter(options) : null;
  }
  return instance;
}
