import "server-only";
import { env, type Env } from "../base/env";
import { listProviders } from "../catalog";
import type { ImplementationSettings } from "./implementation";

/** Providers this deployment can call: built-ins always, others when their credential (and any required env) is set. */
export function configuredProviders(): ReadonlySet<string> {
  const config = env();
  const isSet = (name: string) => Boolean(config[name as keyof Env]);
  return new Set(
    listProviders()
      .filter((provider) => provider.credentialEnv === null || (isSet(provider.credentialEnv) && (provider.requiredEnv ?? []).every(isSet)))
      .map((provider) => provider.id),
  );
}

/** What the env decides about how the configured adapters behave (see providerImplementation). */
export function implementationSettings(): ImplementationSettings {
  return { replicateWebhooks: Boolean(env().REPLICATE_WEBHOOK_SECRET), bflWebhooks: Boolean(env().BFL_WEBHOOK_SECRET) };
}
