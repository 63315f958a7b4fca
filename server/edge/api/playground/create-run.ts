import "server-only";
import { randomUUID } from "node:crypto";
import type { ModelDefinition } from "../../../catalog";
import type { GenerationRequest } from "../../../catalog/request-schema";
import { db } from "../../../base/db";
import { env } from "../../../base/env";
import { planGeneration, startGeneration, type GenerationCreated } from "../../../generations/start-generation";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, requestHash } from "../../http/idempotency";
import { ensurePlaygroundKey } from "../../../playground/playground-key";
import { recordRun } from "../../../playground/record-run";
import { consumeRateLimit } from "../../../rate-limit/check-rate-limit";
import { assertAcceptingWork } from "../../../service/service-state";
import { inTransaction } from "../../../base/transaction";
import { formatCredits } from "../../../base/money";

// The dashboard's one call into the create path of POST /v1/generate/{kind}/{model}: the same
// pause check, generation rate-limit bucket, Idempotency-Key record (per key lineage: the account's
// playground key), plan (routing, price) and start (spend limits, concurrency cap, reservation,
// `pending` record, run events), with the run's own row and activity event in the same transaction.

export type RunRequest = {
  accountId: string;
  userId: string;
  model: ModelDefinition;
  /** Already parsed by the model's strict request schema (parse-run-body.ts). */
  fields: GenerationRequest;
  /** The body as the form sent it: what the Idempotency-Key is bound to, as on /v1. */
  rawBody: unknown;
  idempotencyKey: string;
  comparison: { id: string; position: number } | null;
};

// As the /v1 create's (server/edge/http/operations/generations.ts): a burst waits its turn on the account's lock.
const createTransaction = { maxWait: 15_000, timeout: 20_000 };

export async function createRun(request: RunRequest): Promise<GenerationCreated> {
  const { accountId, model } = request;
  await assertAcceptingWork(db);
  const key = await ensurePlaygroundKey(db, { accountId, region: env().REGION, actor: request.userId });
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } });
  await consumeRateLimit({ accountId, plan: account.plan, bucket: "generation" });

  const fingerprint = requestHash({ kind: model.type, model: model.identifier, body: request.rawBody, comparison: request.comparison });
  const claim = await claimIdempotencyKey(accountId, key.id, request.idempotencyKey, fingerprint, randomUUID());
  if ("replay" in claim) return claim.replay.body as GenerationCreated;
  try {
    const plan = await planGeneration({ accountId, apiKeyId: key.id, region: key.region, model, fields: request.fields });
    return await inTransaction(async (tx) => {
      const created = await startGeneration(tx, plan);
      await recordRun(tx, {
        accountId,
        userId: request.userId,
        generationId: created.generation_id,
        modelIdentifier: model.identifier,
        estimatedCost: String(formatCredits(plan.costMillis)),
        providerOrder: created.generation_provider_order,
        comparison: request.comparison,
      });
      await completeIdempotencyKey(tx, claim.recordId, 202, created);
      return created;
    }, createTransaction);
  } catch (error) {
    await releaseIdempotencyKey(claim.recordId);
    throw error;
  }
}
