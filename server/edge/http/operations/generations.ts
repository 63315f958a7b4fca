import type { ModelType } from "../../../catalog/index";
import { findModelFor } from "../../../generations/generation-body";
import { generationRequestSchema, type GenerationRequest } from "../../../catalog/request-schema";
import { contentListQuerySchema } from "../../contract/generations";
import { defineOperation, type LegacyPath, type OperationBody } from "../define-operation";
import { legacyPathsOf } from "../legacy-paths.mjs";
import type { ErrorCode } from "../../../base/error-table";

// The create routes' body: the strict schema of the model the path names.
function generationBody(kind: ModelType): OperationBody<GenerationRequest> {
  return {
    mediaKind: kind,
    schemaFor: (params) => generationRequestSchema(findModelFor(kind, params.model_identifier ?? "")),
    // The shape stored keys were hashed with since idempotency shipped: keep it, or replays break.
    fingerprint: (params, rawBody) => ({ kind, model: params.model_identifier, body: rawBody }),
  };
}

const createErrors: ErrorCode[] = [
  "ERR1001",
  "ERR1004",
  "ERR1009",
  "ERR1014",
  "ERR1011",
  "ERR1012",
  "ERR1015",
  "ERR2014",
  "ERR2015",
  "ERR2016",
  "ERR3001",
];

const createDescription = (kind: ModelType) =>
  `Validates the body against the model's strict schema (see \`GET /v1/library/models\`; the exact schema per model is in this request body's \`x-darkroom-models\`), checks the spend limits of the key and of the account (ERR1014, before anything is reserved), the ${kind} concurrency cap, reserves the estimated cost and creates the generation in \`pending\`. Execution runs after the response: poll \`GET /v1/content/{generation_id}\` or subscribe to webhook events. Counts toward the generation rate-limit bucket.`;

// Creates for one account queue on its row lock; under a burst they wait their turn rather than
// fail (Prisma's defaults are 2 s to get a connection and 5 s per transaction). Only the creates
// the one statement declines (server/generations/record-at-once.ts) open this transaction.
const createTransaction = { maxWait: 15_000, timeout: 20_000 };

function createOperation(kind: ModelType, legacyPaths: LegacyPath[]) {
  return defineOperation({
    operationId: kind === "image" ? "createImageGeneration" : "createVideoGeneration",
    method: "POST",
    path: `/v1/generate/${kind}/{model_identifier}`,
    legacyPaths,
    tag: "Generations",
    summary: `Start ${kind === "image" ? "an image" : "a video"} generation`,
    description: createDescription(kind),
    scope: "generation:write",
    bucket: "generation",
    body: generationBody(kind),
    idempotent: true,
    preferWait: true,
    cancelAfter: true,
    transaction: createTransaction,
    response: { component: "GenerationCreated", status: 202, message: "Generation accepted." },
    errors: createErrors,
  });
}

export const createImageGeneration = createOperation("image", [
  { operationId: "legacyCreateImageGeneration", path: "/v1/image-generation/{modelIdentifier}" },
]);
export const createVideoGeneration = createOperation("video", []);

export const getGeneration = defineOperation({
  operationId: "getGeneration",
  method: "GET",
  path: "/v1/content/{generation_id}",
  legacyPaths: [{ operationId: "legacyGetImageGeneration", path: "/v1/image-generation/{generation_id}" }],
  tag: "Generations",
  summary: "One generation record",
  description: "The generation record. Only the owning account may read it; any other id is ERR1006.",
  scope: "generation:read",
  response: { component: "GenerationRecord" },
  errors: ["ERR1006"],
});

export const listGenerations = defineOperation({
  operationId: "listGenerations",
  method: "GET",
  path: "/v1/content/list",
  legacyPaths: legacyPathsOf("/v1/content/list"),
  tag: "Generations",
  summary: "List generation records",
  description:
    "The account's generations, newest first (by creation time, then id). `total`, `limit`, `offset`, `has_more` and `next_cursor` sit beside `data`. Page by `offset`, or by cursor: `starting_after` = the previous page's `next_cursor` (its last generation id) reads the next page without repeats or gaps while new generations are created; `starting_after` with `offset`, or an id that is not one of the account's generations, is ERR1001.",
  scope: "generation:read",
  query: contentListQuerySchema,
  response: { component: "GenerationList", paginated: true },
  errors: ["ERR1001"],
});

export const deleteGeneration = defineOperation({
  operationId: "deleteGeneration",
  method: "DELETE",
  path: "/v1/content/{generation_id}",
  tag: "Generations",
  summary: "Delete a generation and its output files",
  description: "Removes the generation and its stored output files.",
  scope: "generation:delete",
  response: { component: "GenerationDeleted", message: "Generation deleted." },
  errors: ["ERR1006"],
});

export const cancelGeneration = defineOperation({
  operationId: "cancelGeneration",
  method: "POST",
  path: "/v1/content/generation/cancel/{generation_id}",
  tag: "Generations",
  summary: "Cancel an in-flight generation",
  description:
    "Cancels a generation that is still `pending` or `processing`: it becomes `canceled`, its reserved credits are refunded and a cancel is sent to the provider (best effort). A terminal generation is ERR1010.",
  scope: "generation:delete",
  response: { component: "GenerationCanceled", message: "Generation canceled." },
  errors: ["ERR1006", "ERR1010"],
});
