import "server-only";
import { listModels } from "../../../catalog/index";
import { errorBody } from "../envelope";
import { ApiError, errorTable, type ErrorCode } from "../../../base/error-table";
import { toComponentSchemas, toJsonSchema, type JsonSchema } from "./json-schema";
import { allOperations } from "./routes";
import {
  errorCodes,
  generationIdSchema,
  idempotencyKeySchema,
  modelIdentifierSchema,
  paginatedEnvelopeSchema,
  requestComponents,
  responseComponents,
  successEnvelopeSchema,
  type ResponseComponentName,
} from "../../contract/index";

// components.*: the reusable parts every operation $refs: schemas, parameters, headers, the
// bearer scheme and one example error body per code.

export const EXAMPLE_REQUEST_ID = "6f1c2a4e-8b3d-4c5e-9f7a-0b1c2d3e4f5a";

/** `UsageSummary` → `UsageSummaryResponse`: the success envelope around that data. */
export function envelopeComponentName(data: ResponseComponentName): string {
  return `${data}Response`;
}

function schemaComponents(): Record<string, JsonSchema> {
  const envelopes: Record<string, ReturnType<typeof successEnvelopeSchema>> = {};
  for (const entry of allOperations) {
    const { data, paginated } = entry.success;
    const schema = responseComponents[data];
    envelopes[envelopeComponentName(data)] ??= paginated ? paginatedEnvelopeSchema(schema) : successEnvelopeSchema(schema);
  }
  return { ...toComponentSchemas({ ...responseComponents, ...envelopes }, "output"), ...toComponentSchemas(requestComponents(), "input") };
}

const modelIdentifierDescription =
  "The model, `<provider>/<model>`: two path segments, with the slash sent as is (not percent-encoded). Current models are listed by `GET /v1/library/models`; an unknown one, or one turned off on this deployment (`model_status: disabled`), is ERR1012.";

function parameterComponents() {
  // The parameter carries the description; the schema keeps only the constraints.
  const strip = (schema: JsonSchema) => {
    const { description: _description, ...rest } = schema;
    return rest;
  };
  const modelSchema = { ...strip(toJsonSchema(modelIdentifierSchema, "input")), examples: listModels().map((model) => model.identifier) };
  return {
    ModelIdentifier: { name: "model_identifier", in: "path", required: true, description: modelIdentifierDescription, schema: modelSchema },
    LegacyModelIdentifier: {
      name: "modelIdentifier",
      in: "path",
      required: true,
      description: modelIdentifierDescription,
      schema: modelSchema,
    },
    GenerationId: {
      name: "generation_id",
      in: "path",
      required: true,
      description: generationIdSchema.description,
      schema: strip(toJsonSchema(generationIdSchema, "input")),
    },
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: idempotencyKeySchema.description,
      schema: strip(toJsonSchema(idempotencyKeySchema, "input")),
    },
    PreferWait: {
      name: "Prefer",
      in: "header",
      required: false,
      description:
        "`wait` or `wait=N` (N from 1 to 60 seconds; `wait` alone is 60): the response waits until the generation finishes, at most that long, and carries its record in `generation_record`; `Preference-Applied` echoes the wait. Other preferences are ignored; a wait outside 1-60 is ERR1001. A replay with the same Idempotency-Key answers what the first request committed, without the record.",
      schema: { type: "string", example: "wait=30" },
    },
    LastEventId: {
      name: "Last-Event-ID",
      in: "header",
      required: false,
      description:
        "Resume a live stream after this event id (what an EventSource sends when it reconnects; `last_event_id` in the query does the same, the header wins). Every later event comes once, in order; a resume snapshot carries no id the client has. A cursor too far back gets `stream.reset`, whose id the stream goes on from. A value that is not an event id is ERR1001.",
      schema: { type: "string" },
    },
    CancelAfter: {
      name: "Cancel-After",
      in: "header",
      required: false,
      description:
        'A deadline for the generation, from its creation: a duration of whole `h`, `m`, `s` and `ms`, largest unit first (`90s`, `5m`, `1h30m`), from 5 s to 24 h. Anything else is ERR1001 naming the header, before any reservation. The record shows it as `generation_deadline_at`. Unfinished at the deadline, the generation is `canceled` with `generation_error_code` ERR4006, refunded in full and never charged; the provider job is canceled (best effort) and a later result is discarded; `generation.canceled` carries `reason: "deadline"`. Part of what an Idempotency-Key is bound to.',
      schema: { type: "string", example: "90s" },
    },
  };
}

const integerHeader = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } });

const headerComponents = {
  "X-Request-Id": {
    description: "The response's request_id (UUID v4); quote it when reporting a problem.",
    schema: { type: "string", format: "uuid" },
  },
  "X-RateLimit-Limit": integerHeader("Requests allowed per minute in this route's bucket (general or generation) on the account's plan."),
  "X-RateLimit-Remaining": integerHeader("Requests left in the current one-minute window; all keys of the account share it."),
  "X-RateLimit-Reset": integerHeader("Unix time in seconds when the window resets."),
  "Retry-After": integerHeader("Seconds to wait before retrying."),
  "Preference-Applied": {
    description: "`wait=N` when the request's `Prefer: wait` was applied (see the Prefer parameter).",
    schema: { type: "string" },
  },
  "Idempotency-Replayed": {
    description: "`true` when this is the stored response of an earlier request with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
};

const exampleDetails: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  ERR1001: { fields: [{ field: "generation_ratio", message: "must be one of 1:1, 16:9, 9:16, 4:3, 3:4, 3:2, 2:3" }] },
  ERR1003: { required_scope: "generation:write", key_scopes: ["health:read", "library:read"] },
  ERR1005: { limit: 150, bucket: "general", reset_at: 1767225660 },
  ERR1006: { generation_id: "0b9e3c1d-2f4a-4b6c-8d7e-1a2b3c4d5e6f" },
  ERR1007: { client_ip: "203.0.113.7" },
  ERR1008: { allowed_methods: ["GET"] },
  ERR1010: { generation_id: "0b9e3c1d-2f4a-4b6c-8d7e-1a2b3c4d5e6f", generation_status: "succeeded" },
  ERR1012: { model_identifier: "nobody/nothing" },
  ERR1014: { scope: "apikey", limit: 10, used: 9.8, requested: 0.4, resets_at: "2026-12-01T00:00:00.000Z" },
  ERR4004: {
    provider_errors: [
      { provider: "replicate", code: "ERR4001" },
      { provider: "fal", code: "ERR4002" },
    ],
  },
};

function exampleComponents() {
  return Object.fromEntries(
    errorCodes.map((code) => [
      code,
      {
        summary: `${code} ${errorTable[code].type} (HTTP ${errorTable[code].status})`,
        value: errorBody(new ApiError(code, undefined, exampleDetails[code] ?? {}), EXAMPLE_REQUEST_ID),
      },
    ]),
  );
}

export const BEARER_SCHEME = "bearer";

export function buildComponents() {
  return {
    securitySchemes: {
      [BEARER_SCHEME]: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "dkr_ followed by 40 base62 characters",
        description:
          "`Authorization: Bearer dkr_...`. A key belongs to one account, one region and one set of scopes; the operation's required scope is listed in its security requirement and in `x-required-scope`. A missing, invalid, expired, revoked or other-region key is ERR1002; a key without the scope is ERR1003; a client address outside the key's IP allowlist is ERR1007.",
      },
    },
    schemas: schemaComponents(),
    parameters: parameterComponents(),
    headers: headerComponents,
    examples: exampleComponents(),
  };
}
