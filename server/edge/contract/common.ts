import { z } from "zod";
import { errorTable, type ErrorCode } from "../../base/error-table";

// Building blocks shared by every /v1 shape: ids, timestamps, credit amounts and the two
// envelopes (request_id is a UUID v4).

export const uuidSchema = z.uuid();
export const dateTimeSchema = z.iso.datetime().describe("ISO 8601 date-time in UTC, e.g. 2026-01-31T12:00:00.000Z.");
export const creditsSchema = z.number().describe("Credits (1 credit = 1 USD), kept to three decimal places.");

/** `<provider>/<model>`: two path segments joined by a literal slash. */
export const MODEL_IDENTIFIER_PATTERN = /^[a-z0-9][a-z0-9.-]*\/[a-z0-9][a-z0-9.-]*$/;
export const modelIdentifierSchema = z
  .string()
  .regex(MODEL_IDENTIFIER_PATTERN)
  .describe("Model identifier `<provider>/<model>`, e.g. `darkroom/lumen-image`.");

export const errorCodes = Object.keys(errorTable) as ErrorCode[];
export const errorCodeSchema = z.enum(errorCodes).describe("Error code from the error table.");
export const errorTypes = [...new Set(Object.values(errorTable).map((entry) => entry.type))];
export const errorTypeSchema = z.enum(errorTypes).describe("Machine-readable error type; one per code.");

export const fieldErrorSchema = z.object({
  field: z.string().describe("The offending field or query parameter, e.g. `generation_ratio` or `days`."),
  message: z.string(),
});

export const errorDetailsSchema = z
  .object({ fields: z.array(fieldErrorSchema).optional().describe("ERR1001: one entry per invalid field.") })
  .catchall(z.unknown())
  .describe("Always an object. Field errors for ERR1001, `provider_errors` for ERR4xxx, context otherwise.");

export const errorBodySchema = z.object({
  code: errorCodeSchema,
  type: errorTypeSchema,
  message: z.string().describe("Human-readable explanation; do not parse."),
  retryable: z.boolean().describe("Whether the same request may succeed later."),
  details: errorDetailsSchema,
});

export const errorEnvelopeSchema = z.object({
  status: z.literal("error"),
  request_id: uuidSchema.describe("Also sent as the X-Request-Id header."),
  error: errorBodySchema,
});

const successFields = {
  status: z.literal("success"),
  request_id: uuidSchema.describe("Also sent as the X-Request-Id header."),
  message: z.string(),
  timestamp: dateTimeSchema,
};

export function successEnvelopeSchema<Data extends z.ZodType>(data: Data) {
  return z.object({ ...successFields, data });
}

export const paginationFields = {
  total: z.int().min(0).describe("Items in the whole collection."),
  limit: z.int().min(1).describe("Page size used."),
  offset: z.int().min(0).describe("Items skipped before this page (0 when the page starts after a cursor)."),
  has_more: z.boolean().describe("Whether items follow this page."),
  next_cursor: z
    .string()
    .nullable()
    .describe("The last item's id when `has_more`, else null: send it as `starting_after` for the next page."),
};

export function paginatedEnvelopeSchema<Data extends z.ZodType>(data: Data) {
  return z.object({ ...successFields, ...paginationFields, data });
}

export type FieldError = z.infer<typeof fieldErrorSchema>;
export type ErrorBody = z.infer<typeof errorBodySchema>;
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
export type SuccessEnvelope<Data> = z.infer<ReturnType<typeof successEnvelopeSchema<z.ZodType<Data>>>>;
export type PaginatedEnvelope<Data> = z.infer<ReturnType<typeof paginatedEnvelopeSchema<z.ZodType<Data>>>>;
