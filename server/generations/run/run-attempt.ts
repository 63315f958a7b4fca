import "server-only";
import { randomUUID } from "node:crypto";
import type { ProviderId } from "../../catalog/providers";
import { db, sqlPool } from "../../base/db";
import { ProviderError, type ProviderResult, type SubmitResult } from "../../providers/types";
import { sendProviderResult } from "../../providers/send-provider-result";
import { adapterFor, adapterForAttempt } from "../../providers/registry";
import { log } from "../../base/log";
import { inTransaction } from "../../base/transaction";
import { emitGenerationStarted, findGenerationStarted } from "../emit-generation-event";
import { expireAtDeadline } from "../deadline/expire-generation";
import type { AttemptError, AttemptOutcome } from "./attempt-outcome";
import { attemptProviderCost, providerJobFor, type JobSource } from "./provider-job";
import { storeOutputs } from "./store-outputs";

// One provider attempt, in two kinds of step: `startAttempt` submits (a synchronous provider
// answers at once), `checkAttempt` polls an accepted job until it ends or the model's timeout
// passes. Every attempt is a provider_attempt row: provider, outcome, latency, cost, wasted.

function asAttemptError(provider: ProviderId, error: unknown): AttemptError {
  if (error instanceof ProviderError) return { provider, code: error.code, message: error.message, failover: error.failover };
  log.error("provider attempt crashed", { provider, error: error instanceof Error ? error.stack : String(error) });
  return { provider, code: "ERR4002", message: "The provider call failed unexpectedly.", failover: true };
}

/** What a step of the run reads of its generation: the job's columns and the attempt row's. */
type GenerationRow = JobSource & { accountId: string; region: string; status: string; estimatedCost: string; deadlineAt: Date | null };

const GENERATION_COLUMNS = `id, account_id AS "accountId", region::text AS region, status::text AS status, model_identifier AS "modelIdentifier", prompt, ratio,
  output_format AS "outputFormat", output_number AS "outputNumber", duration_seconds AS "durationSeconds", resolution,
  generate_audio AS "generateAudio", input_files AS "inputFiles", input_file_last_content AS "inputFileLastContent",
  estimated_cost::text AS "estimatedCost", deadline_at AS "deadlineAt"`;

/**
 * The generation while in flight, else null. Straight to the pool: every attempt's first
 * statement, and through Prisma's query compiler (the whole row, mapped) it cost more CPU than
 * the database spends on it.
 */
async function inFlightRow(generationId: string): Promise<GenerationRow | null> {
  const { rows } = await sqlPool().query<GenerationRow>({
    name: "run-generation-in-flight",
    text: `SELECT ${GENERATION_COLUMNS} FROM generation WHERE id = $1::uuid`,
    values: [generationId],
  });
  const row = rows[0];
  if (!row) throw new Error(`generation ${generationId} does not exist`);
  return row.status === "pending" || row.status === "processing" ? row : null;
}

async function recordFailure(
  generationId: string,
  attempt: number,
  error: AttemptError,
  startedAtMs: number,
  predictionId?: string,
  providerCost?: string | null,
) {
  await db.providerAttempt.updateMany({
    where: { generationId, attemptNumber: attempt, outcome: "running" },
    data: {
      outcome: "failed",
      // Outputs made and lost on our side (a download refused) were billed all the same.
      ...(providerCost ? { providerCost } : {}),
      errorCode: error.code,
      errorMessage: error.message.slice(0, 1000),
      finishedAt: new Date(),
      latencyMs: Date.now() - startedAtMs,
      ...(predictionId ? { predictionId } : {}),
    },
  });
}

async function settle(
  row: GenerationRow,
  provider: ProviderId,
  attempt: number,
  predictionId: string,
  result: ProviderResult,
  startedAtMs: number,
): Promise<AttemptOutcome> {
  const generationId = row.id;
  if (result.status === "running") return { outcome: "running" };
  if (result.status === "succeeded") {
    const providerCost = attemptProviderCost(row, provider, result.outputs.length);
    try {
      const placed = await storeOutputs({
        accountId: row.accountId,
        generationId,
        attempt,
        provider,
        outputs: result.outputs,
        format: row.outputFormat,
      });
      return {
        outcome: "succeeded",
        predictionId,
        outputKeys: placed.keys,
        predictTimeSeconds: result.predictTimeSeconds,
        providerCost,
        ...(placed.locations.length > 0 ? { outputLocations: placed.locations, outputDestination: placed.destination } : {}),
      };
    } catch (error) {
      const failure = asAttemptError(provider, error);
      await recordFailure(generationId, attempt, failure, startedAtMs, predictionId, providerCost);
      return { outcome: "failed", error: failure };
    }
  }
  const failure =
    result.status === "failed"
      ? asAttemptError(provider, result.error)
      : { provider, code: "ERR4002" as const, message: "The provider canceled the job.", failover: true };
  await recordFailure(generationId, attempt, failure, startedAtMs);
  return { outcome: "failed", error: failure };
}

/** Submits an attempt. A provider that names its job up front (`local`) starts working while the start is recorded; the others go through startNamedLater. */
export async function startAttempt(generationId: string, provider: ProviderId, attempt: number): Promise<AttemptOutcome> {
  const adapter = adapterForAttempt(provider);
  if (!adapter.predictionIdFor) return startNamedLater(generationId, provider, attempt, adapter);
  const row = await inFlightRow(generationId);
  if (!row) return { outcome: "abandoned" };
  // Between attempts too: past its Cancel-After deadline, no provider is asked to start.
  if (row.deadlineAt && row.deadlineAt.getTime() <= Date.now()) {
    await expireAtDeadline(generationId);
    return { outcome: "abandoned" };
  }
  const job = providerJobFor(row, provider, attempt);
  const startedAt = new Date();
  // A synchronous provider names its prediction up front, so a cancel can reach it mid-submit; it
  // starts working while the attempt is recorded (the render does not wait on the database).
  const namedUpFront = adapter.predictionIdFor(job);
  const early = settled(adapter.submit(job));
  let moved: { moved: boolean; startedSubscribed: boolean };
  try {
    moved = await recordStart(row, provider, attempt, namedUpFront, startedAt);
  } catch (error) {
    await adapter.cancel(namedUpFront).catch(() => false);
    throw error;
  }
  // generation.started to subscribed endpoints, queued at every start: one delivery per endpoint
  // and generation (the event key), so a failover or a retried step queues nothing new, and a step
  // retried after a crash between the move above and this still queues it (only on the first
  // move, it was lost for good). Queued while the provider works, and awaited before the step ends.
  // The move's statement also says whether any endpoint takes the event: most accounts have none,
  // and then there is nothing to read or queue (one statement fewer per generation).
  const started = moved.moved && moved.startedSubscribed ? queueGenerationStarted(generationId) : null;
  try {
    return await submitJob(row, provider, attempt, job, { adapter, startedAt, namedUpFront, early });
  } finally {
    await started;
  }
}

/**
 * A provider that names its job when it answers (Replicate, fal, OpenAI): the read of the
 * generation, the attempt's row and the move to `processing` are one statement (claimStart), then
 * the submit. Nothing is recorded for a generation out of flight or past its deadline.
 */
async function startNamedLater(
  generationId: string,
  provider: ProviderId,
  attempt: number,
  adapter: ReturnType<typeof adapterFor>,
): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const claim = await claimStart(generationId, provider, attempt, startedAt);
  if (claim.status !== "pending" && claim.status !== "processing") return { outcome: "abandoned" };
  // Between attempts too: past its Cancel-After deadline, no provider is asked to start.
  if (!claim.startable) {
    await expireAtDeadline(generationId);
    return { outcome: "abandoned" };
  }
  const job = providerJobFor(claim, provider, attempt);
  // As in startAttempt: generation.started queued while the provider works, on the first move only.
  const started = claim.movedSubscribed === true ? queueGenerationStarted(generationId) : null;
  try {
    return await submitJob(claim, provider, attempt, job, { adapter, startedAt, namedUpFront: null, early: null });
  } finally {
    await started;
  }
}

/**
 * The generation (as inFlightRow reads it), and when it is in flight with its deadline ahead, the
 * attempt's row and its move to `processing` (as recordStart writes them), in one statement.
 * `movedSubscribed`: null when nothing moved (out of flight, past the deadline, or canceled while
 * this statement waited for the row), else whether an endpoint takes generation.started.
 */
async function claimStart(generationId: string, provider: ProviderId, attempt: number, startedAt: Date) {
  const { rows } = await sqlPool().query<GenerationRow & { startable: boolean; movedSubscribed: boolean | null }>({
    name: "run-claim-attempt-start",
    text: `WITH g AS (
             SELECT id, account_id, region, status, model_identifier, prompt, ratio, output_format, output_number, duration_seconds, resolution, generate_audio,
                    input_files, input_file_last_content, estimated_cost, deadline_at,
                    status IN ('pending', 'processing') AND (deadline_at IS NULL OR deadline_at > $3) AS startable
               FROM generation WHERE id = $2::uuid),
           attempt AS (
             INSERT INTO provider_attempt (id, generation_id, account_id, region, model_identifier, provider, attempt_number, estimated_cost, prediction_id, started_at)
             SELECT $1::uuid, id, account_id, region, model_identifier, $4, $5, estimated_cost, NULL, $3 FROM g WHERE startable
             ON CONFLICT (generation_id, attempt_number) DO UPDATE
               SET outcome = 'running', started_at = EXCLUDED.started_at, finished_at = NULL, error_code = NULL, error_message = NULL, prediction_id = EXCLUDED.prediction_id),
           moved AS (
             UPDATE generation SET status = 'processing', provider_used = $4, prediction_id = NULL, started_at = COALESCE(started_at, $3), updated_at = $3
              WHERE id = (SELECT id FROM g WHERE startable) AND status IN ('pending', 'processing')
              RETURNING EXISTS (SELECT 1 FROM webhook_endpoint e WHERE e.account_id = generation.account_id AND 'generation.started' = ANY (e.events)) AS subscribed)
           SELECT ${GENERATION_COLUMNS}, startable, (SELECT subscribed FROM moved) AS "movedSubscribed" FROM g`,
    values: [randomUUID(), generationId, startedAt, provider, attempt],
  });
  const row = rows[0];
  if (!row) throw new Error(`generation ${generationId} does not exist`);
  return row;
}

/**
 * generation.started, queued once per generation, and a webhook problem never stops the run: its
 * own transaction when an endpoint takes the event (this step writes outside one); none at all
 * when no endpoint does.
 */
async function queueGenerationStarted(generationId: string): Promise<void> {
  try {
    const started = await findGenerationStarted(db, generationId);
    if (started) await inTransaction((tx) => emitGenerationStarted(tx, started));
  } catch (error) {
    log.error("generation.started webhook not queued", { generationId, error: error instanceof Error ? error.message : String(error) });
  }
}

type Settled<T> = Promise<{ ok: true; value: T } | { ok: false; error: unknown }>;

/** A promise that never rejects (awaited later; a rejection meanwhile is not unhandled). */
function settled<T>(promise: Promise<T>): Settled<T> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/**
 * The attempt's row (a retried step finds its row and carries on: one per generation and attempt)
 * and the generation's move to `processing`, in one statement. `moved` false when the generation
 * left flight meanwhile (canceled or swept): the attempt still runs, and its result is discarded.
 * `startedSubscribed`: whether an endpoint of the account takes generation.started (as
 * findGenerationStarted decides it).
 */
async function recordStart(row: GenerationRow, provider: ProviderId, attempt: number, predictionId: string | null, startedAt: Date) {
  // Straight to the pool, as inFlightRow: every attempt runs it, outside any transaction.
  const { rows } = await sqlPool().query<{ subscribed: boolean }>({
    name: "run-record-attempt-start",
    text: `WITH attempt AS (
             INSERT INTO provider_attempt (id, generation_id, account_id, region, model_identifier, provider, attempt_number, estimated_cost, prediction_id, started_at)
             VALUES ($1::uuid, $2::uuid, $3::uuid, $4::"Region", $5, $6, $7, $8::numeric, $9, $10)
             ON CONFLICT (generation_id, attempt_number) DO UPDATE
               SET outcome = 'running', started_at = EXCLUDED.started_at, finished_at = NULL, error_code = NULL, error_message = NULL, prediction_id = EXCLUDED.prediction_id)
           UPDATE generation SET status = 'processing', provider_used = $6, prediction_id = $9, started_at = COALESCE(started_at, $10), updated_at = $10
            WHERE id = $2::uuid AND status IN ('pending', 'processing')
           RETURNING EXISTS (SELECT 1 FROM webhook_endpoint e WHERE e.account_id = generation.account_id AND 'generation.started' = ANY (e.events)) AS subscribed`,
    values: [
      randomUUID(),
      row.id,
      row.accountId,
      row.region,
      row.modelIdentifier,
      provider,
      attempt,
      row.estimatedCost,
      predictionId,
      startedAt,
    ],
  });
  return { moved: rows.length === 1, startedSubscribed: rows[0]?.subscribed === true };
}

async function submitJob(
  row: GenerationRow,
  provider: ProviderId,
  attempt: number,
  job: ReturnType<typeof providerJobFor>,
  start: { adapter: ReturnType<typeof adapterFor>; startedAt: Date; namedUpFront: string | null; early: Settled<SubmitResult> | null },
): Promise<AttemptOutcome> {
  const generationId = row.id;
  const startedAtMs = start.startedAt.getTime();
  try {
    const submitted = await submission(start.early ?? settled(start.adapter.submit(job)));
    // The prediction id, unless the provider named it up front (then both rows have it already)
    // or the job succeeded at once: then the finish writes it with the success (its statement
    // sets both rows), and a failure to store the outputs with the failed attempt; the job has
    // ended, so no cancel needs it meanwhile. Two statements fewer per such generation.
    const succeededAtOnce = submitted.kind === "completed" && submitted.result.status === "succeeded";
    if (submitted.predictionId !== start.namedUpFront && !succeededAtOnce) {
      await db.providerAttempt.updateMany({
        where: { generationId, attemptNumber: attempt },
        data: { predictionId: submitted.predictionId },
      });
      await db.generation.updateMany({
        where: { id: generationId, status: "processing", providerUsed: provider },
        data: { predictionId: submitted.predictionId },
      });
    }
    if (submitted.kind === "accepted")
      return { outcome: "accepted", predictionId: submitted.predictionId, startedAtMs, timeoutSeconds: job.model.timeoutSeconds };
    return settle(row, provider, attempt, submitted.predictionId, submitted.result, startedAtMs);
  } catch (error) {
    const failure = asAttemptError(provider, error);
    await recordFailure(generationId, attempt, failure, startedAtMs);
    return { outcome: "failed", error: failure };
  }
}

async function submission(early: Settled<SubmitResult>): Promise<SubmitResult> {
  const outcome = await early;
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/**
 * Collects an accepted job: the provider's authoritative state now. `timedOut`: the run's wait for
 * the result reached the model's timeout (the executor's clock), so the job is canceled and fails over.
 */
export async function checkAttempt(
  generationId: string,
  provider: ProviderId,
  attempt: number,
  accepted: Extract<AttemptOutcome, { outcome: "accepted" }>,
  options: { timedOut?: boolean } = {},
): Promise<AttemptOutcome> {
  const row = await inFlightRow(generationId);
  if (!row) return { outcome: "abandoned" };
  const adapter = adapterFor(provider);
  if (options.timedOut || Date.now() - accepted.startedAtMs > accepted.timeoutSeconds * 1000) {
    await adapter.cancel(accepted.predictionId).catch(() => false);
    const failure: AttemptError = { provider, code: "ERR4001", message: `No result within ${accepted.timeoutSeconds} s.`, failover: true };
    await recordFailure(generationId, attempt, failure, accepted.startedAtMs);
    return { outcome: "failed", error: failure };
  }
  try {
    const result = await adapter.poll(accepted.predictionId, providerJobFor(row, provider, attempt));
    return settle(row, provider, attempt, accepted.predictionId, result, accepted.startedAtMs);
  } catch (error) {
    // A poll that cannot reach the provider is not yet a failed job: try again until timeout.
    log.warn("provider poll failed", { generationId, provider, error: String(error) });
    return { outcome: "running" };
  }
}

export type PollState = "running" | "finished" | "abandoned";

/**
 * For poll-provider-job: asks the provider once about an accepted job and, when it has ended,
 * sends the result event the run waits for (its own id: it also wakes a run whose wait missed the callback).
 */
export async function pollAcceptedJob(input: {
  generationId: string;
  provider: ProviderId;
  attempt: number;
  predictionId: string;
}): Promise<PollState> {
  const row = await inFlightRow(input.generationId);
  const running =
    row &&
    (await db.providerAttempt.count({ where: { generationId: input.generationId, attemptNumber: input.attempt, outcome: "running" } })) > 0;
  if (!row || !running) {
    // Canceled or swept meanwhile, or already collected: wake the run now rather than at the model's timeout.
    await sendProviderResult("poll", input.generationId, input.provider, input.predictionId, "abandoned");
    return "abandoned";
  }
  let result: ProviderResult;
  try {
    result = await adapterFor(input.provider).poll(input.predictionId, providerJobFor(row, input.provider, input.attempt));
  } catch (error) {
    log.warn("provider poll failed", { generationId: input.generationId, provider: input.provider, error: String(error) });
    return "running";
  }
  if (result.status === "running") return "running";
  await sendProviderResult("poll", input.generationId, input.provider, input.predictionId, result.status);
  return "finished";
}
