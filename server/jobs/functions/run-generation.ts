import "server-only";
import { NonRetriableError } from "inngest";
import type { ProviderId } from "../../catalog/providers";
import { db } from "../../base/db";
import { finishFailed, finishSucceeded } from "../../generations/run/finish-generation";
import { runProviderChain, type ChainSteps } from "../../generations/run/provider-chain";
import { checkAttempt, startAttempt } from "../../generations/run/run-attempt";
import { expireAtDeadline } from "../../generations/deadline/expire-generation";
import { inngest } from "../../base/events/client";
import { generationRequested } from "../../base/events/definitions";

// generation/requested → the provider chain (server/generations/run/provider-chain.ts): one step
// per submit (a synchronous provider's success is finished in it); an accepted job is polled by its own function (poll-provider-job) and awaited by one
// wait for its result event (callback or poller) until the model's timeout, then collected; a
// failing provider hands over to the next, except a content refusal. Then one terminal step:
// succeeded + charge, or failed + refund. onFailure makes sure a run that crashes for good still
// refunds.

export const runGeneration = inngest.createFunction(
  {
    id: "run-generation",
    triggers: [generationRequested],
    retries: 4,
    // Async checkpointing with every step kept in the SDK's buffer: a run whose provider answers at
    // once runs its submit step and returns in one Call Request (its reply carries the step and
    // RunComplete), where the usual protocol takes a second one to replay the memoized step; a run
    // that reaches its wait checkpoints the steps it ran first, then reports the wait.
    checkpointing: { bufferedSteps: Number.POSITIVE_INFINITY },
    // Per account: at most 8 of its runs execute a step at once, and accounts are served in turn,
    // so one account's burst (or the sweeper re-sending hundreds) never holds up another's.
    concurrency: [{ key: "event.data.accountId", limit: 8 }],
    onFailure: async ({ event, step }) => {
      const generationId = (event.data.event.data as { generationId: string }).generationId;
      await step.run("refund-crashed-run", () => finishFailed({ generationId, errors: [], code: "ERR5000" }));
    },
  },
  async ({ event, step }) => {
    const { generationId, providers, deadlineAt } = event.data;
    // Inngest's step tools, typed for the chain (its step results are plain JSON already).
    const steps: ChainSteps = {
      run: (id, body) => step.run(id, body) as Promise<never>,
      sendEvent: (id, payload) => step.sendEvent(id, payload),
      waitForEvent: (id, options) => step.waitForEvent(id, options),
    };
    return runProviderChain(
      generationId,
      steps,
      {
        load: async () => {
          const row = await db.generation.findUnique({
            where: { id: generationId },
            select: { status: true, providerOrder: true, deadlineAt: true },
          });
          if (!row) throw new NonRetriableError(`generation ${generationId} does not exist`);
          return {
            inFlight: row.status === "pending" || row.status === "processing",
            providers: row.providerOrder as ProviderId[],
            deadlineAt: row.deadlineAt?.toISOString() ?? null,
          };
        },
        // A synchronous provider's success is finished in its submit step (one step and one Call
        // Request fewer before the status shows): a retry after the finish committed finds the
        // generation out of flight ("abandoned"), its charge and webhooks committed with it.
        submit: async (provider, attempt) => {
          const outcome = await startAttempt(generationId, provider, attempt);
          if (outcome.outcome !== "succeeded") return outcome;
          const { succeeded } = await finishSucceeded({
            generationId,
            attempt,
            outputKeys: outcome.outputKeys,
            predictTimeSeconds: outcome.predictTimeSeconds,
            predictionId: outcome.predictionId,
            providerCost: outcome.providerCost,
            outputLocations: outcome.outputLocations,
            outputDestination: outcome.outputDestination,
          });
          return { outcome: "finished", succeeded };
        },
        collect: (provider, attempt, accepted, timedOut) => checkAttempt(generationId, provider, attempt, accepted, { timedOut }),
        finishSucceeded: (attempt, succeeded) =>
          finishSucceeded({
            generationId,
            attempt,
            outputKeys: succeeded.outputKeys,
            predictTimeSeconds: succeeded.predictTimeSeconds,
            predictionId: succeeded.predictionId,
            providerCost: succeeded.providerCost,
            outputLocations: succeeded.outputLocations,
            outputDestination: succeeded.outputDestination,
          }),
        finishFailed: (errors) => finishFailed({ generationId, errors }),
        expire: () => expireAtDeadline(generationId),
      },
      providers as ProviderId[] | undefined,
      deadlineAt,
    );
  },
);
