import "server-only";
import { env, type Env } from "../../base/env";
import type { ProviderAdapter } from "../types";
import { createMiniMaxAdapter, type MiniMaxAdapterOptions } from "./minimax-adapter";

export { createMiniMaxAdapter, type MiniMaxAdapterOptions } from "./minimax-adapter";

/** The adapter's settings from the environment; null when MINIMAX_API_KEY is unset. */
export function minimaxFromEnv(config: Env = env()): MiniMaxAdapterOptions | null {
  if (!config.MINIMAX_API_KEY) return null;
  return { token: config.MINIMAX_API_KEY, baseUrl: config.MINIMAX_BASE_URL };
}

let instance: ProviderAdapter | null | undefined;

/** The ready adapter for this deployment, or null when MiniMax is not configured. */
export function getMiniMaxAdapter(): ProviderAdapter | null {
  if (instance === undefined) {
    const options = minimaxFromEnv();
    instance = options ? createMiniMaxAdapter(options) : null;
  }
  return instance;
}
