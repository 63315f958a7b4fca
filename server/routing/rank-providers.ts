import "server-only";
import type { ProviderId } from "../catalog/index";

// `fastest` routing: order a model's providers by their recent attempts in this
// region. Pure: the stats come in (provider-stats.ts loads them), so every rule is unit-tested.
//
// The rule, in tiers, each tier keeping catalog order as its last tie-break:
//  1. scored: at least `minAttempts` decided attempts (succeeded + failed). score = success rate
//     − wastedPenalty × wasted rate; compared in bands of `scoreBand` (about-equally reliable
//     providers tie, with a handful of attempts one result moves the rate by several points),
//     then p95 latency of successes ascending, then the exact score.
//  2. unscored: fewer decided attempts, or none ("no data"). Neutral: not judged, so they keep
//     their catalog order, after every provider that has shown enough evidence.
//  3. open circuit: `breakerConsecutiveFailures` failures in a row, or a failure rate of at least
//     `breakerFailureRate` over at least `minAttempts` decided attempts, with its last failure
//     less than `coolDownMs` ago. Never removed: it stays a last resort for failover. Once the
//     cool-down has passed the circuit is half-open and the provider is ranked as in 1 or 2,
//     so one more failure opens it again for another cool-down.

export type ProviderStats = {
  /** Finished attempts in the window, any outcome (succeeded, failed, canceled, discarded). */
  attempts: number;
  successes: number;
  failures: number;
  /** Attempts the provider billed for work we threw away. */
  wasted: number;
  /** Over succeeded attempts only: a fast error must not make a provider look fast. */
  p95LatencyMs: number | null;
  /** Failed attempts since the most recent success (canceled and discarded ones are skipped). */
  consecutiveFailures: number;
  lastFailureAt: Date | null;
  lastSuccessAt: Date | null;
};

export type RankProvidersOptions = {
  now: Date;
  /** Decided attempts (succeeded + failed) needed before a provider is scored. */
  minAttempts?: number;
  wastedPenalty?: number;
  /** Width of the score bands inside which latency decides; 0 compares exact scores. */
  scoreBand?: number;
  breakerConsecutiveFailures?: number;
  breakerFailureRate?: number;
  coolDownMs?: number;
};

export type ProviderRanking = {
  order: ProviderId[];
  /** Why each provider sits where it does, for logs and debugging. */
  reasons: Partial<Record<ProviderId, string>>;
  /** Providers whose circuit is open (rule 3), last in `order`. */
  openCircuits: ProviderId[];
};

export const RANKING_DEFAULTS: Readonly<Required<Omit<RankProvidersOptions, "now">>> = {
  minAttempts: 5,
  wastedPenalty: 0.5,
  scoreBand: 0.05,
  breakerConsecutiveFailures: 3,
  breakerFailureRate: 0.5,
  coolDownMs: 30_000,
};

const Tier = { Scored: 0, Unscored: 1, Open: 2 } as const;
type Tier = (typeof Tier)[keyof typeof Tier];

type Placement = {
  provider: ProviderId;
  catalogIndex: number;
  tier: Tier;
  band: number;
  score: number;
  p95: number;
  reason: string;
};

export function rankProviders(
  candidates: readonly ProviderId[],
  stats: ReadonlyMap<string, ProviderStats>,
  options: RankProvidersOptions,
): ProviderRanking {
  const settings = { ...RANKING_DEFAULTS, ...definedOnly(options) };
  const placements = unique(candidates).map((provider, catalogIndex) => place(provider, catalogIndex, stats.get(provider), settings));
  placements.sort(comparePlacements);
  return {
    order: placements.map((placement) => placement.provider),
    reasons: Object.fromEntries(placements.map((placement) => [placement.provider, placement.reason])),
    openCircuits: placements.filter((placement) => placement.tier === Tier.Open).map((placement) => placement.provider),
  };
}

function place(
  provider: ProviderId,
  catalogIndex: number,
  stats: ProviderStats | undefined,
  settings: Required<RankProvidersOptions>,
): Placement {
  const unranked = { provider, catalogIndex, band: 0, score: 0, p95: Infinity };
  if (!stats || stats.attempts === 0) return { ...unranked, tier: Tier.Unscored, reason: "no data" };

  const circuit = circuitState(stats, settings);
  let prefix = "";
  if (circuit.state === "open") {
    const wait = circuit.halfOpenInSeconds === null ? "" : `, half-open in ${circuit.halfOpenInSeconds} s`;
    return { ...unranked, tier: Tier.Open, reason: `open circuit (${circuit.tripped}${wait})` };
  }
  if (circuit.state === "half-open") prefix = `half-open circuit (${circuit.tripped}), `;

  const decided = stats.successes + stats.failures;
  if (decided < settings.minAttempts) {
    return {
      ...unranked,
      tier: Tier.Unscored,
      reason: `${prefix}${decided} decided attempts, fewer than ${settings.minAttempts}: catalog order`,
    };
  }
  const score = stats.successes / decided - settings.wastedPenalty * (stats.wasted / stats.attempts);
  const latency = stats.p95LatencyMs === null ? "p95 unknown" : `p95 ${Math.round(stats.p95LatencyMs)} ms`;
  return {
    provider,
    catalogIndex,
    tier: Tier.Scored,
    // The epsilon keeps 0.95 / 0.05 = 18.999… in band 19.
    band: settings.scoreBand > 0 ? Math.floor(score / settings.scoreBand + 1e-9) : score,
    score,
    p95: stats.p95LatencyMs ?? Infinity,
    reason: `${prefix}score ${score.toFixed(2)}, ${latency}`,
  };
}

export type CircuitState =
  | { state: "closed" }
  /** Tripped, and its last failure is less than the cool-down ago: ranked last. */
  | { state: "open"; tripped: string; halfOpenInSeconds: number | null }
  /** Tripped, but the cool-down has passed: ranked again, and one more failure re-opens it. */
  | { state: "half-open"; tripped: string };

type BreakerSettings = Pick<
  Required<RankProvidersOptions>,
  "now" | "minAttempts" | "breakerConsecutiveFailures" | "breakerFailureRate" | "coolDownMs"
>;

/** The breaker of rule 3 for one provider's stats; health reports it too. */
export function circuitState(stats: ProviderStats, options: Pick<RankProvidersOptions, "now"> & Partial<BreakerSettings>): CircuitState {
  const settings: BreakerSettings = { ...RANKING_DEFAULTS, ...definedOnly(options) };
  const decided = stats.successes + stats.failures;
  const failureRate = decided === 0 ? 0 : stats.failures / decided;
  const tripped =
    stats.consecutiveFailures >= settings.breakerConsecutiveFailures
      ? `${stats.consecutiveFailures} consecutive failures`
      : decided >= settings.minAttempts && failureRate >= settings.breakerFailureRate
        ? `failure rate ${failureRate.toFixed(2)} over ${decided} attempts`
        : null;
  if (!tripped) return { state: "closed" };
  // Without a failure time the cool-down cannot be measured: stay open.
  const sinceFailureMs = stats.lastFailureAt ? settings.now.getTime() - stats.lastFailureAt.getTime() : -Infinity;
  if (sinceFailureMs >= settings.coolDownMs) return { state: "half-open", tripped };
  const halfOpenInSeconds = Number.isFinite(sinceFailureMs) ? Math.ceil((settings.coolDownMs - sinceFailureMs) / 1000) : null;
  return { state: "open", tripped, halfOpenInSeconds };
}

function comparePlacements(a: Placement, b: Placement): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.tier === Tier.Scored) {
    if (a.band !== b.band) return b.band - a.band;
    if (a.p95 !== b.p95) return a.p95 < b.p95 ? -1 : 1;
    if (a.score !== b.score) return b.score - a.score;
  }
  return a.catalogIndex - b.catalogIndex;
}

function unique(candidates: readonly ProviderId[]): ProviderId[] {
  return [...new Set(candidates)];
}

/** `{minAttempts: undefined}` must not erase the default when spread. */
function definedOnly(options: RankProvidersOptions): RankProvidersOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as RankProvidersOptions;
}
