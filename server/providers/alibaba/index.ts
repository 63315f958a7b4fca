import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createAlibabaAdapter, type AlibabaAdapterOptions } from "./alibaba-adapter";

export { createAlibabaAdapter, type AlibabaAdapterOptions } from "./alibaba-adapter";

/** The adapter's settings from the environment; null when DASHSCOPE_API_KEY is unset. */
export function alibabaFromEnv(config: Env = env()): AlibabaAdapterOptions | null {
  if (!config.DASHSCOPE_API_KEY) return null;
  return { apiKey: config.DASHSCOPE_API_KEY, baseUrl: config.DASHSCOPE_BASE_URL };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when Model Studio is not configured. */
export function getAlibabaAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = alibabaFromEnv();
    instance = options ? createAlibabaAdapter(options) : null;
  }
  return instance;
}
