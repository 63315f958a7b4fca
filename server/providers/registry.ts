import "server-only";
import type { ProviderId } from "../catalog/providers";
import { getAlibabaAdapter } from "./alibaba";
import { getBflAdapter } from "./bfl";
import { getByteplusAdapter } from "./byteplus";
import { getCloudflareAdapter } from "./cloudflare";
import { getFalAdapter } from "./fal";
import { getGoogleAdapter } from "./google";
import { localAdapter, localBackupAdapter } from "./local";
import { getMiniMaxAdapter } from "./minimax";
import { getOpenAIAdapter } from "./openai";
import { getReplicateAdapter } from "./replicate";
import { getRunwayAdapter } from "./runway";
import { ProviderError, type ProviderAdapter } from "./types";

// Provider id → adapter. The built-ins always; a real provider once its credential is set
// (server/providers/configured-providers.ts). A chain naming one without an adapter fails over.

let adapters: Map<ProviderId, ProviderAdapter> | null = null;

function loadAdapters() {
  const map = new Map<ProviderId, ProviderAdapter>([
    ["local", localAdapter],
    ["local-backup", localBackupAdapter],
  ]);
  for (const adapter of [
    getReplicateAdapter(),
    getFalAdapter(),
    getOpenAIAdapter(),
    getBflAdapter(),
    getMiniMaxAdapter(),
    getRunwayAdapter(),
    getCloudflareAdapter(),
    getAlibabaAdapter(),
    getByteplusAdapter(),
    getGoogleAdapter(),
  ])
    if (adapter) map.set(adapter.id, adapter);
  return map;
}

export function adapterFor(provider: string): ProviderAdapter {
  adapters ??= loadAdapters();
  const adapter = adapters.get(provider as ProviderId);
  if (!adapter) throw new Error(`no adapter for provider ${provider}: it is not configured`);
  return adapter;
}

/**
 * For a provider attempt: the adapter, or, for a provider this deployment has no credential for,
 * one whose submit fails with ERR4002, so the attempt is recorded and the chain fails over.
 */
export function adapterForAttempt(provider: ProviderId): ProviderAdapter {
  adapters ??= loadAdapters();
  return adapters.get(provider) ?? unconfiguredAdapter(provider);
}

function unconfiguredAdapter(provider: ProviderId): ProviderAdapter {
  const notConfigured = () => new ProviderError(provider, "ERR4002", `${provider} is not configured on this deployment.`, "not_configured");
  return {
    id: provider,
    submit: () => Promise.reject(notConfigured()),
    poll: () => Promise.reject(notConfigured()),
    cancel: () => Promise.resolve(false),
  };
}
