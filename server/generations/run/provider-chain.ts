import type { ProviderId } from "../../catalog/providers";
import type { AttemptError, AttemptOutcome } from "./attempt-outcome";

// The generation run's shape, apart from Inngest and the database (run-generation.ts wires both):
// `load` (unless the event names the providers), then per provider attempt one submit step (a
// synchronous provider's success is finished in it: no terminal step); a job the provider accepted gets one
// `provider/job.accepted` (its poller, poll-provider-job), one wait for its result event until
// the model's timeout, and one collect step. So a run takes a bounded number of steps however long
// the model runs: 1 + 4 per provider + 1 (10 for two providers), where polling every few seconds
// took two per poll (about 1,200 for a 900 s model on two providers, over Inngest's 1,000).
// A result event whose collect still finds the job running (a stale or forged callback) waits
// again, at most MAX_WAKES times per attempt.

export const MAX_WAKES = 5;

type Accepted = Extract<AttemptOutcome, { outcome: "accepted" }>;
type Succeeded = Extract<AttemptOutcome, { outcome: "succeeded" }>;

/** The step tools the chain uses, as Inngest's `step` provides them. */
export type ChainSteps = {
  run<T>(id: string, body: () => Promise<T>): Promise<T>;
  sendEvent(id: string, event: { name: string; id: string; data: Record<string, unknown> }): Promise<unknown>;
  waitForEvent(id: string, options: { event: string; timeout: Date; if: string }): Promise<unknown>;
};

/** What each step does (the database and the providers). */
export type ChainWork = {
  load(): Promise<{ inFlight: boolean; providers: ProviderId[]; deadlineAt?: string | null }>;
  submit(provider: ProviderId, attempt: number): Promise<AttemptOutcome>;
  collect(provider: ProviderId, attempt: number, accepted: Accepted, timedOut: boolean): Promise<AttemptOutcome>;
  finishSucceeded(attempt: number, succeeded: Succeeded): Promise<unknown>;
  finishFailed(errors: AttemptError[]): Promise<unknown>;
  /** The generation's Cancel-After deadline passed while the chain waited: cancel it (if still in flight). */
  expire(): Promise<unknown>;
};

/**
 * `providers`: the order the create chose, when the run's event carries it (with the deadline, if
 * any); then there is no `load` step, and a generation that left flight meanwhile is found by the
 * first submit ("abandoned"), which reads the row anyway. A wait for a provider's result ends at
 * the generation's Cancel-After deadline when that comes before the model's timeout; then the
 * generation is canceled at its deadline, and the run ends.
 */
export async function runProviderChain(
  generationId: string,
  step: ChainSteps,
  work: ChainWork,
  providers?: ProviderId[],
  deadlineAt?: string,
): Promise<unknown> {
  const plan = providers?.length ? { inFlight: true, providers, deadlineAt } : await step.run("load", () => work.load());
  if (!plan.inFlight) return { skipped: "not in flight" };
  const generationDeadlineMs = plan.deadlineAt ? Date.parse(plan.deadlineAt) : null;

  const errors: AttemptError[] = [];
  for (const [index, provider] of plan.providers.entries()) {
    const attempt = index + 1;
    let outcome = await step.run(`attempt-${attempt}-${provider}-submit`, () => work.submit(provider, attempt));
    if (outcome.outcome === "accepted") {
      const accepted = outcome;
      const timeoutMs = accepted.startedAtMs + accepted.timeoutSeconds * 1000;
      // Both times are fixed (the event's and the submit step's), so a replay decides the same.
      const byDeadline = generationDeadlineMs !== null && generationDeadlineMs < timeoutMs;
      const deadline = new Date(byDeadline ? generationDeadlineMs : timeoutMs);
      const waitForResult = (wake: number) =>
        step.waitForEvent(`attempt-${attempt}-result-${wake}`, {
          event: "provider/result.received",
          timeout: deadline,
          if: `async.data.predictionId == ${JSON.stringify(accepted.predictionId)}`,
        });
      // A wait only sees events received after it is registered. The first one is registered in
      // the same step round as the poller's start (parallel steps), so the poller's result can never
      // come before the wait that takes it.
      const [firstResult] = await Promise.all([
        waitForResult(1),
        step.sendEvent(`attempt-${attempt}-poll`, {
          name: "provider/job.accepted",
          id: `provider-poll:${provider}:${accepted.predictionId}`,
          data: {
            generationId,
            provider,
            attempt,
            predictionId: accepted.predictionId,
            startedAtMs: accepted.startedAtMs,
            timeoutSeconds: accepted.timeoutSeconds,
          },
        }),
      ]);
      for (let wake = 1; outcome.outcome === "accepted" || outcome.outcome === "running"; wake += 1) {
        const result = wake === 1 ? firstResult : await waitForResult(wake);
        if (result === null && byDeadline) {
          await step.run(`attempt-${attempt}-deadline`, () => work.expire());
          return { skipped: "deadline passed" };
        }
        const timedOut = result === null || wake >= MAX_WAKES;
        outcome = await step.run(`attempt-${attempt}-${provider}-collect-${wake}`, () =>
          work.collect(provider, attempt, accepted, timedOut),
        );
      }
    }
    if (outcome.outcome === "abandoned") return { skipped: "left flight during the run" };
    if (outcome.outcome === "finished") return { succeeded: outcome.succeeded };
    if (outcome.outcome === "succeeded") {
      const succeeded = outcome;
      return step.run("finish-succeeded", () => work.finishSucceeded(attempt, succeeded));
    }
    if (outcome.outcome === "failed") {
      errors.push(outcome.error);
      if (!outcome.error.failover) break;
    }
  }
  return step.run("finish-failed", () => work.finishFailed(errors));
}

/**
 * The poller's schedule: waits between polls that grow from 1 s to 30 s and add up to the model's
 * timeout. A 900 s model is polled 40 times (80 steps with their sleeps); one of an hour 130 times.
 */
export function pollDelaysSeconds(timeoutSeconds: number): number[] {
  const ramp = [1, 2, 3, 3, 3, 5, 5, 5, 10, 10, 15, 15];
  const delays: number[] = [];
  let total = 0;
  while (total < timeoutSeconds) {
    const delay = ramp[delays.length] ?? 30;
    delays.push(delay);
    total += delay;
  }
  return delays;
}
