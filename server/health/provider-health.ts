import { listProviders, type ProviderDefinition, type ProviderId } from "../catalog/index";
import { db, type Db } from "../db";

// GET /v1/health/inference/providers: each catalog provider judged by its attempts that finished
// in a rolling window (this region's database holds this region's attempts only).

export const PROVIDER_HEALTH_WINDOW_SECONDS = 900;
/** Below this many attempts in the window a provider is not judged: too little evidence. */
export const MIN_ATTEMPTS_TO_JUDGE = 4;
export const DEGRADED_FAILURE_RATE = 0.5;
export const DOWN_FAILURE_RATE = 0.9;
// Bounds the scan on started_at (indexed) as well as finished_at: no attempt outlives this,
// since the sweeper fails generations past their model's timeout (at most 900 s).
const LONGEST_ATTEMPT_SECONDS = 3_600;

export type ProviderHealthStatus = "healthy" | "degraded" | "down" | "not_configured";

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
  /** failures / total_attempts, 3 decimals; 0 without attempts. */
  failure_rate: number;
  window: ProviderHealthWindow;
};

export type ProvidersHealth = {
  service: "providers";
  /** Every configured provider is up (healthy or degraded). */
  healthy: boolean;
  providers_total: number;
  providers: ProviderHealthEntry[];
};

export type ProviderHealthOptions = {
  /** Ids whose credentials the env provides; built-in providers need none. */
  configuredProviders: ReadonlySet<string>;
  now?: Date;
  windowSeconds?: number;
  database?: Db;
};

type WindowCounts = { provider: string; total_attempts: number; failures: number; successes: number };

export async function getProviderHealth(options: ProviderHealthOptions): Promise<ProvidersHealth> {
  const { configuredProviders, now = new Date(), windowSeconds = PROVIDER_HEALTH_WINDOW_SECONDS, database = db } = options;
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) throw new RangeError(`windowSeconds must be a positive integer, got ${windowSeconds}`);
  const providers = listProviders();
  const since = new Date(now.getTime() - windowSeconds * 1000);
  const earliestStart = new Date(since.getTime() - LONGEST_ATTEMPT_SECONDS * 1000);

  const rows = await database.$queryRaw<WindowCounts[]>`
    SELECT provider,
           count(*)::int                                        AS total_attempts,
           count(*) FILTER (WHERE outcome = 'failed')::int      AS failures,
           count(*) FILTER (WHERE outcome = 'succeeded')::int   AS successes
      FROM provider_attempt
     WHERE provider = ANY(${providers.map((provider) => provider.id)}::text[])
       AND started_at >= ${earliestStart.toISOString()}::timestamptz
       AND finished_at >= ${since.toISOString()}::timestamptz
       AND finished_at <= ${now.toISOString()}::timestamptz
       AND outcome <> 'running'
     GROUP BY provider`;
  const countsByProvider = new Map(rows.map((row) => [row.provider, row]));

  const entries = providers.map((provider): ProviderHealthEntry => {
    const counts = countsByProvider.get(provider.id) ?? { total_attempts: 0, failures: 0, successes: 0 };
    const configured = isConfigured(provider, configuredProviders);
    return {
      provider: provider.id,
      status: providerHealthStatus(counts, configured),
      failure_rate: failureRate(counts),
      window: {
        total_attempts: counts.total_attempts,
        failures: counts.failures,
        successes: counts.successes,
        duration_seconds: windowSeconds,
      },
    };
  });

  return {
    service: "providers",
    healthy: entries.every((entry) => entry.status !== "down"),
    providers_total: entries.length,
    providers: entries,
  };
}

export function isConfigured(provider: ProviderDefinition, configuredProviders: ReadonlySet<string>): boolean {
  return provider.credentialEnv === null || configuredProviders.has(provider.id);
}

/** Judged on the exact rate; the reported failure_rate is rounded. */
export function providerHealthStatus(
  counts: { total_attempts: number; failures: number },
  configured: boolean,
): ProviderHealthStatus {
  if (!configured) return "not_configured";
  if (counts.total_attempts < MIN_ATTEMPTS_TO_JUDGE) return "healthy";
  const rate = counts.failures / counts.total_attempts;
  if (rate >= DOWN_FAILURE_RATE) return "down";
  if (rate >= DEGRADED_FAILURE_RATE) return "degraded";
  return "healthy";
}

function failureRate(counts: { total_attempts: number; failures: number }): number {
  if (counts.total_attempts === 0) return 0;
  return Math.round((counts.failures / counts.total_attempts) * 1000) / 1000;
}
