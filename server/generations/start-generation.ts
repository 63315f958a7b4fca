import { createHash } from "node:crypto";
import { findModel, type ModelDefinition } from "../catalog";
import { priceGeneration } from "../catalog/pricing";
import { fieldErrorsFromZod, generationRequestSchema, type GenerationRequest } from "../catalog/request-schema";
import { db } from "../db";
import type { RegionName } from "../env";
import { successBody } from "../http/envelope";
import { ApiError, invalidRequest } from "../http/errors";
import { readJsonBody } from "../http/read-json-body";
import type { PrebuiltResult, ReplayedResult } from "../http/with-api-key";
import { sendGenerationRequested } from "./send-generation-requested";
import { claimIdempotencyKey, completeIdempotencyKey, readIdempotencyKey, releaseIdempotencyKey, requestHash } from "./idempotency";
import { parseProviderOrder } from "./parse-provider-order";
import { resolveOrder } from "./resolve-order";
import { reserveAndRecord } from "./reserve-and-record";

// POST /v1/generate/{image|video}/{model_identifier}: validate, check idempotency, then in one
// transaction check the concurrency cap, reserve credits and create the `pending` record; after
// commit, hand the run to the background (spec §1, §3; ARCHITECTURE §4).

export type StartGenerationInput = {
  request: Request;
  requestId: string;
  accountId: string;
  apiKeyId: string;
  region: RegionName;
  kind: "image" | "video";
  modelIdentifier: string;
};

function findModelFor(kind: "image" | "video", identifier: string): ModelDefinition {
  const model = findModel(identifier);
  if (!model) throw new ApiError("ERR1012", `No model ${identifier}. See GET /v1/library/models.`, { model_identifier: identifier });
  if (model.type !== kind) {
    throw invalidRequest(`${identifier} is a ${model.type} model: use POST /v1/generate/${model.type}/${identifier}.`, [
      { field: "model_identifier", message: `is a ${model.type} model, not ${kind === "image" ? "an image" : "a video"} model` },
    ]);
  }
  return model;
}

function validate(model: ModelDefinition, body: unknown): GenerationRequest {
  const parsed = generationRequestSchema(model).safeParse(body);
  if (!parsed.success) throw invalidRequest(`The request body does not fit ${model.identifier}.`, fieldErrorsFromZod(parsed.error));
  return parsed.data;
}

// Creates for one account queue on its row lock; under a burst they wait their turn rather
// than fail (Prisma's defaults are 2 s to get a connection and 5 s per transaction).
const CREATE_TRANSACTION = { maxWait: 15_000, timeout: 20_000 };

/** Same generation, same pictures: the seed comes from the generation id. */
export function seedFor(generationId: string) {
  return createHash("sha256").update(generationId).digest().readUInt32BE(0);
}

export async function startGeneration(input: StartGenerationInput): Promise<PrebuiltResult | ReplayedResult> {
  const idempotencyKey = readIdempotencyKey(input.request);
  const model = findModelFor(input.kind, input.modelIdentifier);
  const { body } = await readJsonBody(input.request);
  const fields = validate(model, body);
  const requested = parseProviderOrder(model, fields.generation_provider_order);
  const price = priceGeneration(model, {
    count: fields.generation_output_number,
    durationSeconds: fields.generation_duration,
    resolution: fields.generation_resolution,
    audio: fields.generation_generate_audio,
  });

  const claim = idempotencyKey
    ? await claimIdempotencyKey(input.accountId, idempotencyKey, requestHash({ kind: input.kind, model: model.identifier, body }), input.requestId)
    : null;
  if (claim && "replay" in claim) return claim;

  try {
    const providerOrder = await resolveOrder(model, input.region, requested);
    const generationId = crypto.randomUUID();
    const responseBody = successBody(
      { model_identifier: model.identifier, generation_provider_order: providerOrder, generation_prediction_id: null, generation_id: generationId, generation_initialized: true },
      { requestId: input.requestId, message: "Generation accepted." },
    );
    await db.$transaction(async (tx) => {
      await reserveAndRecord(tx, { ...input, generationId, model, fields, providerOrder, costMillis: price.totalMillis });
      if (claim) await completeIdempotencyKey(tx, claim.recordId, 202, responseBody);
    }, CREATE_TRANSACTION);
    await sendGenerationRequested(generationId, input.accountId);
    return { prebuilt: { status: 202, body: responseBody } };
  } catch (error) {
    if (claim) await releaseIdempotencyKey(claim.recordId);
    throw error;
  }
}
