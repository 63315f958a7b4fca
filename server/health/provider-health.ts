import "server-only";
import { listProviders, type ProviderDefinition, type ProviderId } from "../catalog/index";
import { db, type Db } from "../base/db";
import type { RegionName } from "../base/env";
import { loadProviderStats } from "../routing/provider-stats";
import { circuitState, type ProviderStats } from "../routing/rank-providers";

// GET /v1/health/inference/providers: each catalog provider judged by its attempts that finished
// in a rolling window in one region (the one the request is served in: a database may hold
// several regions' attempts when one deployment answers for several hosts), with the
// routing circuit breaker's rule (server/routing/rank-providers.ts) over all its models:
//
//   unknown     not configured (no credentials) or turned off (CATALOG_DISABLED_PROVIDERS), so
//               nothing routes to it
//   degraded    the circuit is open (failures within the cool-down), or at least half of the
//               window's attempts failed and the latest decided one failed too
//   recovering  it was failing (circuit tripped, or half the window failed) but has succeeded
//               since its last failure, or its circuit is half-open: new attempts are let through
//   healthy     otherwise, including too few attempts to judge
//
// `available` is false for an unknown provider and for a configured one failing at least 90% of
// the window with no success since; only the latter makes the overall `healthy` false.

export const PROVIDER_HEALTH_WINDOW_SECONDS = 900;
/** Below this many attempts in the window the failure rate is not judged: too little evidence. */
export const MIN_ATTEMPTS_TO_JUDGE = 4;
export const DEGRADED_FAILURE_RATE = 0.5;
export const DOWN_FAILURE_RATE = 0.9;

export type ProviderHealthStatus = "healthy" | "recovering" | "degraded" | "unknown";

export type ProviderHealthWindow = {
  /** Finished attempts of any outcome: succeeded, failed, canceled, discarded. */
  total_attempts: number;
  failures: number;
  successes: number;
  duration_seconds: number;
};

export type ProviderHealthEntry = {
  provider: ProviderId;
  status: ProviderHealthStatus;
  /** Why the status is what it is, in words. */
  status_reason: string;
  /** Configured and not failing nearly every attempt: routing can count on it. */
  available: boolean;
  /** failures / total_attempts, 3 decimals; 0 without attempts. */
  failure_rate: number;
  window: ProviderHealthWindow;
};

export type ProvidersHealth = {
  service: "providers";
  /** Every configured provider is available. */
  healthy: boolean;
  providers_total: number;
  providers: ProviderHealthEntry[];
};

export type ProviderHealthOptions = {
  /** Only this region's attempts count. */
  region: RegionName;
  /** Ids whose credentials the env provides; built-in providers need none. */
  configuredProviders: ReadonlySet<string>;
  /** Ids the operator turned off (CATALOG_DISABLED_PROVIDERS); none when omitted. */
  disabledProviders?: ReadonlySet<string>;
  now?: Date;
  windowSeconds?: number;
  database?: Db;
};

/** The stats of a provider without a finished attempt in the window. */
export const NO_ATTEMPTS: Readonly<ProviderStats> = {
  attempts: 0,
  successes: 0,
  failures: 0,
  wasted: 0,
  p95LatencyMs: null,
  consecutiveFailures: 0,
  lastFailureAt: null,
  lastSuccessAt: null,
};

export async function getProviderHealth(options: ProviderHealthOptions): Promise<ProvidersHealth> {
  const {
    region,
    configuredProviders,
    disabledProviders = new Set(),
    now = new Date(),
    windowSeconds = PROVIDER_HEALTH_WINDOW_SECONDS,
    database = db,
  } = options;
  const providers = listProviders();
  const statsByProvider = await loadProviderStats({
    region,
    providers: providers.map((provider) => provider.id),
    now,
    windowSeconds,
    db: database,
  });

  const entries = providers.map((provider): ProviderHealthEntry => {
    const stats = statsByProvider.get(provider.id) ?? NO_ATTEMPTS;
    return {
      provider: provider.id,
      ...(disabledProviders.has(provider.id)
        ? TURNED_OFF
        : judgeProvider(
            stats,
            isConfigured(provider, configuredProviders) ? null : [provider.credentialEnv, ...(provider.requiredEnv ?? [])].join(" or "),
            now,
          )),
      failure_rate: failureRate(stats),
      window: {
        total_attempts: stats.attempts,
        failures: stats.failures,
        successes: stats.successes,
        duration_seconds: windowSeconds,
      },
    };
  });

  return {
    service: "providers",
    healthy: entries.every((entry) => entry.available || entry.status === "unknown"),
    providers_total: entries.length,
    providers: entries,
  };
}

export function isConfigured(provider: ProviderDefinition, configuredProviders: ReadonlySet<string>): boolean {
  return provider.credentialEnv === null || configuredProviders.has(provider.id);
}

export type ProviderJudgement = Pick<ProviderHealthEntry, "status" | "status_reason" | "available">;

const TURNED_OFF: ProviderJudgement = {
  status: "unknown",
  status_reason: "disabled: turned off on this deployment (CATALOG_DISABLED_PROVIDERS)",
  available: false,
};

/**
 * `missingCredential` names the env var an unconfigured provider lacks (null when configured).
 * Judged on the exact rate; the reported failure_rate is rounded.
 */
export function judgeProvider(stats: ProviderStats, missingCredential: string | null, now: Date): ProviderJudgement {
  if (missingCredential !== null) {
    return { status: "unknown", status_reason: `not configured: ${missingCredential} is not set`, available: false };
  }
  const rate = stats.attempts === 0 ? 0 : stats.failures / stats.attempts;
  const judged = stats.attempts >= MIN_ATTEMPTS_TO_JUDGE;
  const failing = judged && rate >= DEGRADED_FAILURE_RATE;
  const succeededSinceFailure = stats.lastSuccessAt !== null && stats.lastFailureAt !== null && stats.lastSuccessAt > stats.lastFailureAt;
  const rateText = `failure rate ${rate.toFixed(2)} over ${stats.attempts} attempts`;
  const circuit = circuitState(stats, { now });

  if (circuit.state === "open") {
    return { status: "degraded", status_reason: `circuit open: ${circuit.tripped}`, available: !(failing && rate >= DOWN_FAILURE_RATE) };
  }
  if ((failing || circuit.state === "half-open") && succeededSinceFailure) {
    return { status: "recovering", status_reason: `${rateText}, but the latest attempt succeeded`, available: true };
  }
  if (failing) {
    return { status: "degraded", status_reason: rateText, available: rate < DOWN_FAILURE_RATE };
  }
  if (circuit.state === "half-open") {
    return {
      status: "recovering",
      status_reason: `circuit half-open after ${circuit.tripped}: new attempts are let through`,
      available: true,
    };
  }
  return {
    status: "healthy",
    status_reason: judged ? rateText : `${stats.attempts} attempts in the window, too few to judge`,
    available: true,
  };
}

function failureRate(stats: Pick<ProviderStats, "attempts" | "failures">): number {
  if (stats.attempts === 0) return 0;
  return Math.round((stats.failures / stats.attempts) * 1000) / 1000;
}
