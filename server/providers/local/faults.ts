import "server-only";
import { env } from "../../base/env";
import type { ProviderJob } from "../types";
import {
  localProviderFaultsSchema,
  type LocalProviderFaults,
  type LocalProviderFaultsInput,
  type LocalProviderId,
} from "../../base/local-provider-faults";
import { seededRandom, seedFrom } from "./seeded-random";

// What the local provider does to one attempt: answer after some latency, or fail, reject,
// stall, or refuse at once. Drawn from a PRNG seeded by (provider, generation, attempt), so a
// retried step decides the same, and rates of 0 and 1 are certain.

export type FaultOutcome = "render" | "unavailable" | "fail" | "reject" | "stall";
export type FaultPlan = { outcome: FaultOutcome; latencyMs: number; stallMs: number };

let override: LocalProviderFaults | null = null;

/** For tests: replaces LOCAL_PROVIDER_FAULTS until called again; null goes back to the env. */
export function setLocalProviderFaults(config: LocalProviderFaultsInput | null): void {
  override = config === null ? null : localProviderFaultsSchema.parse(config);
}

/** The configuration in force, read lazily (the env is validated at startup by server/base/env.ts). */
export function localProviderFaults(): LocalProviderFaults {
  return override ?? env().LOCAL_PROVIDER_FAULTS ?? {};
}

/**
 * With LOCAL_PROVIDER_PROMPT_FAULTS=1 (tests, demos), a prompt can steer one request:
 * "[local:fail]", "[local-backup:reject]", "[local:unavailable]", "[local:stall=2000]",
 * "[local:slow=3000]". Never on in production.
 */
function promptDirectives(
  provider: LocalProviderId,
  prompt: string | null | undefined,
): { outcome?: FaultOutcome; latencyMs?: number; stallMs?: number } {
  if (!prompt || !env().LOCAL_PROVIDER_PROMPT_FAULTS) return {};
  const found: { outcome?: FaultOutcome; latencyMs?: number; stallMs?: number } = {};
  for (const [, name, directive, value] of prompt.matchAll(/\[([a-z-]+):(fail|reject|unavailable|stall|slow)(?:=(\d{1,6}))?\]/g)) {
    if (name !== provider) continue;
    if (directive === "slow") found.latencyMs = Number(value ?? 2000);
    else {
      found.outcome = directive as FaultOutcome;
      if (directive === "stall" && value) found.stallMs = Number(value);
    }
  }
  return found;
}

export function planFaults(
  provider: LocalProviderId,
  job: Pick<ProviderJob, "generationId" | "attempt" | "model"> & { prompt?: string | null },
): FaultPlan {
  const directed = promptDirectives(provider, job.prompt);
  const planned = planConfiguredFaults(provider, job);
  return {
    outcome: directed.outcome ?? planned.outcome,
    latencyMs: directed.latencyMs ?? planned.latencyMs,
    stallMs: directed.stallMs ?? planned.stallMs,
  };
}

function planConfiguredFaults(provider: LocalProviderId, job: Pick<ProviderJob, "generationId" | "attempt" | "model">): FaultPlan {
  const faults = localProviderFaults()[provider];
  const stallMs = faults?.stallMs ?? job.model.timeoutSeconds * 1000;
  if (!faults) return { outcome: "render", latencyMs: 0, stallMs };
  const random = seededRandom(seedFrom("faults", provider, job.generationId, job.attempt));
  // Every draw is always made, in a fixed order, so one setting never shifts another's dice.
  const [min, max] = typeof faults.latencyMs === "number" ? [faults.latencyMs, faults.latencyMs] : faults.latencyMs;
  const latencyMs = random.int(min, max);
  const stall = random.next() < faults.stallRate;
  const fail = random.next() < faults.failRate;
  const reject = random.next() < faults.rejectRate;
  const outcome: FaultOutcome = faults.unavailable ? "unavailable" : stall ? "stall" : fail ? "fail" : reject ? "reject" : "render";
  return { outcome, latencyMs, stallMs };
}
