import "server-only";
import type { ProviderId } from "../catalog/providers";
import { getFalAdapter } from "./fal";
import { localAdapter, localBackupAdapter } from "./local";
import { getOpenAIAdapter } from "./openai";
import { getReplicateAdapter } from "./replicate";
import type { ProviderAdapter } from "./types";

// Provider id → adapter. The built-ins always; a real provider once its credential is set
// (server/providers/configured-providers.ts). A chain naming one without an adapter fails over.

let adapters: Map<ProviderId, ProviderAdapter> | null = null;

function loadAdapters() {
  const map = new Map<ProviderId, ProviderAdapter>([
    ["local", localAdapter],
    ["local-backup", localBackupAdapter],
  ]);
  for (const adapter of [getReplicateAdapter(), getFalAdapter(), getOpenAIAdapter()]) if (adapter) map.set(adapter.id, adapter);
  return map;
}

export function adapterFor(provider: string): ProviderAdapter {
  adapters ??= loadAdapters();
  const adapter = adapters.get(provider as ProviderId);
  if (!adapter) throw new Error(`no adapter for provider ${provider}: it is not configured`);
  return adapter;
}
