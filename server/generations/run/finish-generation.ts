import "server-only";
import { inTransaction } from "../../base/transaction";
import { db } from "../../base/db";
import { deletePlacedOutputs, type DestinationSnapshot } from "../../storage/destinations/output-placement";
import { expireGeneration } from "../deadline/expire-generation";
import { wakeWaiters } from "../finish-waiters";
import { queueFinishedAfterCommit } from "../send-generation-finished";
import type { AttemptError } from "./attempt-outcome";
import { settleFailure } from "./settle-failure";
import { settleSuccess } from "./settle-success";

// What a run does with its provider's last word: the success (settle-success.ts) or the failure
// (settle-failure.ts), each one path that decides under the generation's row lock, and what their
// answers ask for next. A generation that already left flight (canceled meanwhile, swept) is not
// touched: a late result is discarded, never charged. One whose Cancel-After deadline passed is
// canceled at its deadline instead (ERR4006, refunded: the deadline's own transition), whatever the
// run brought.

type SuccessInput = {
  generationId: string;
  attempt: number;
  outputKeys: string[];
  outputLocations?: string[];
  outputDestination?: DestinationSnapshot | null;
  predictTimeSeconds: number | null;
  predictionId?: string | null;
  providerCost?: string | null;
};

/** `predictionId`: the provider's job, recorded here when the submit that got the success did not record it. */
export async function finishSucceeded(input: SuccessInput): Promise<{ succeeded: boolean }> {
  const { generationId } = input;
  const outcome = await settleSuccess({
    ...input,
    predictionId: input.predictionId ?? null,
    providerCost: input.providerCost ?? null,
    now: new Date(),
  });
  if ("done" in outcome) {
    // The creates waiting in this process (`Prefer: wait`) read their record at once, without
    // waiting for the NOTIFY round trip, which still reaches the other instances.
    wakeWaiters(generationId);
    // A retried step queues again what its first try may not have (the event key keeps it once).
    if (outcome.subscribed) await queueFinishedAfterCommit(generationId, outcome.accountId, "succeeded");
    return { succeeded: true };
  }
  if (outcome.declined === "past_deadline") await inTransaction((tx) => expireGeneration(tx, { generationId }));
  // Discarded: its files are not ours to keep (nor the account's: it was never charged for them).
  const owner = input.outputLocations?.length
    ? await db.generation.findUnique({ where: { id: generationId }, select: { accountId: true } })
    : null;
  await deletePlacedOutputs({
    id: generationId,
    accountId: owner?.accountId ?? "",
    outputKeys: input.outputKeys,
    outputLocations: input.outputLocations ?? [],
    outputDestination: input.outputDestination ?? null,
  }).catch(() => 0);
  return { succeeded: false };
}

/** Every provider failed (ERR4004), or one refused the content (ERR4005, not retried elsewhere). */
export async function finishFailed(input: { generationId: string; errors: AttemptError[]; code?: "ERR4001" | "ERR5000" }) {
  const { generationId, errors } = input;
  const rejected = errors.find((error) => !error.failover);
  const code = input.code ?? (rejected ? rejected.code : "ERR4004");
  const message = rejected
    ? rejected.message.startsWith("upload_failed")
      ? rejected.message
      : `${rejected.provider} rejected the request: ${rejected.message}`
    : errors.length
      ? `All providers failed: ${errors.map((error) => `${error.provider} ${error.code} (${error.message})`).join("; ")}`
      : "The generation could not run.";
  const outcome = await settleFailure({ generationId, code, message, errors });
  // The account's own bucket refused the outputs: said in-app too (the activity and the webhook say it with the failure).
  if ("done" in outcome && rejected?.message.startsWith("upload_failed")) await tellUploadFailed(generationId, rejected.message);
  if ("declined" in outcome && outcome.declined === "past_deadline") await inTransaction((tx) => expireGeneration(tx, { generationId }));
  return { failed: "done" in outcome };
}

async function tellUploadFailed(generationId: string, message: string) {
  const row = await db.generation.findUnique({ where: { id: generationId }, select: { accountId: true } });
  if (!row) return;
  await db.notification.create({
    data: {
      accountId: row.accountId,
      userId: null,
      kind: "storage.upload_failed",
      title: "Outputs could not be written to your bucket",
      body: `Generation ${generationId} failed and was refunded: ${message} Check the destination on the Storage settings page.`,
    },
  });
}
