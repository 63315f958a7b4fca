import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createCloudflareAdapter, type CloudflareAdapterOptions } from "./cloudflare-adapter";

export { createCloudflareAdapter, type CloudflareAdapterOptions } from "./cloudflare-adapter";

/** The adapter's settings from the environment; null unless both CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID are set. */
export function cloudflareFromEnv(config: Env = env()): CloudflareAdapterOptions | null {
  if (!config.CLOUDFLARE_API_TOKEN || !config.CLOUDFLARE_ACCOUNT_ID) return null;
  return { token: config.CLOUDFLARE_API_TOKEN, accountId: config.CLOUDFLARE_ACCOUNT_ID, baseUrl: config.CLOUDFLARE_BASE_URL };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when Cloudflare Workers AI is not configured. */
export function getCloudflareAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = cloudflareFromEnv();
    instance = options ? createCloudflareAdapter(options) : null;
  }
  return instance;
}
