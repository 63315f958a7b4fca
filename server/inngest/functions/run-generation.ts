import "server-only";
import { NonRetriableError } from "inngest";
import type { ProviderId } from "../../catalog/providers";
import { db } from "../../db";
import type { AttemptError, AttemptOutcome } from "../../generations/run/attempt-outcome";
import { finishFailed, finishSucceeded } from "../../generations/run/finish-generation";
import { checkAttempt, startAttempt } from "../../generations/run/run-attempt";
import { inngest } from "../client";
import { generationRequested, providerResultReceived } from "../events";

// generation/requested → the provider chain: one named step per submit and per
// check; an accepted job is awaited by its callback event, or polled every few seconds, until the
// model's timeout; a failing provider hands over to the next, except a content refusal. Then one
// terminal step: succeeded + charge, or failed + refund. onFailure makes sure a run that crashes
// for good still refunds.

const CHECK_EVERY = "3s";

export const runGeneration = inngest.createFunction(
  {
    id: "run-generation",
    triggers: [generationRequested],
    retries: 4,
    onFailure: async ({ event, step }) => {
      const generationId = (event.data.event.data as { generationId: string }).generationId;
      await step.run("refund-crashed-run", () => finishFailed({ generationId, errors: [], code: "ERR5000" }));
    },
  },
  async ({ event, step }) => {
    const { generationId } = event.data;
    const plan = await step.run("load", async () => {
      const row = await db.generation.findUnique({ where: { id: generationId }, select: { status: true, providerOrder: true } });
      if (!row) throw new NonRetriableError(`generation ${generationId} does not exist`);
      return { inFlight: row.status === "pending" || row.status === "processing", providers: row.providerOrder as ProviderId[] };
    });
    if (!plan.inFlight) return { skipped: "not in flight" };

    const errors: AttemptError[] = [];
    for (const [index, provider] of plan.providers.entries()) {
      const attempt = index + 1;
      let outcome: AttemptOutcome = await step.run(`attempt-${attempt}-${provider}-submit`, () => startAttempt(generationId, provider, attempt));
      if (outcome.outcome === "accepted") {
        const accepted = outcome;
        for (let check = 1; outcome.outcome === "accepted" || outcome.outcome === "running"; check += 1) {
          await step.waitForEvent(`attempt-${attempt}-callback-${check}`, {
            event: providerResultReceived,
            timeout: CHECK_EVERY,
            if: `async.data.predictionId == "${accepted.predictionId}"`,
          });
          outcome = await step.run(`attempt-${attempt}-${provider}-check-${check}`, () => checkAttempt(generationId, provider, attempt, accepted));
        }
      }
      if (outcome.outcome === "abandoned") return { skipped: "left flight during the run" };
      if (outcome.outcome === "succeeded") {
        const succeeded = outcome;
        return step.run("finish-succeeded", () => finishSucceeded({ generationId, attempt, outputKeys: succeeded.outputKeys, predictTimeSeconds: succeeded.predictTimeSeconds }));
      }
      if (outcome.outcome === "failed") {
        errors.push(outcome.error);
        if (!outcome.error.failover) break;
      }
    }
    return step.run("finish-failed", () => finishFailed({ generationId, errors }));
  },
);
