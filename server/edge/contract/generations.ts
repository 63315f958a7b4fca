import { z } from "zod";
import { listModels, type ModelDefinition, type ModelType } from "../../catalog/index";
import { PROMPT_MAX_LENGTH } from "../../catalog/request-schema";
import { creditsSchema, dateTimeSchema, errorCodeSchema, modelIdentifierSchema, uuidSchema } from "./common";
import { integerQueryParam, optionalIntegerQueryParam, textQueryParam } from "./query";

// The generation routes: create (202), read, list, cancel and delete, with their
// status codes and the cancel and delete bodies. The exact create body of each
// model is generationRequestSchema(model) in server/catalog/request-schema.ts.

export const generationStatusSchema = z.enum(["pending", "processing", "succeeded", "failed", "canceled"]);

/** The optional Idempotency-Key header of the create routes. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_\-:.]{1,255}$/;
export const idempotencyKeySchema = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN)
  .describe(
    "Makes the create safe to retry: for 24 hours after the first request completes, the same key with the same body returns the stored response (same request_id, status and body) with `Idempotency-Replayed: true`. The same key with a different body is ERR2015; while the first request still runs, ERR2016. A key outside the pattern is ERR2014. Scoped to the account and the API key (with the keys rotated from or to it): another key of the account sending the same key runs its own request.",
  );

export const generationIdSchema = uuidSchema.describe(
  "The generation's id. Another account's generation, or an id that is not a UUID, is ERR1006.",
);

const fileUrlSchema = z.url();
const secondsSchema = z.number().min(0).nullable();

export const generationRecordSchema = z.object({
  account_id: uuidSchema,
  generation_id: uuidSchema,
  model_identifier: modelIdentifierSchema,
  generation_status: generationStatusSchema.describe("Terminal states: succeeded, failed, canceled. Poll until one of these."),
  generation_prompt: z.string().nullable().describe("null when the model takes no prompt and none was sent."),
  generation_ratio: z.string().nullable(),
  generation_output_format: z.string().nullable().describe("e.g. `png`, `jpg`, `webp`, `mp4`."),
  generation_output_number: z.int().min(1),
  generation_provider_order: z.array(z.string()).describe("Providers in attempt order."),
  generation_created_at: dateTimeSchema,
  generation_input_file: z.array(fileUrlSchema).describe("Input file URLs; empty when none were sent."),
  generation_output_file: z
    .array(fileUrlSchema)
    .describe("Signed, expiring output URLs once the status is `succeeded`; empty before, and after the plan's output retention."),
  generation_output_location: z
    .array(z.enum(["darkroom", "customer"]))
    .describe(
      "Where each output file is, in the order of `generation_output_file`: `darkroom` (this service's storage) or `customer` (the account's own storage destination).",
    ),
  generation_output_link_expires_at: z
    .array(dateTimeSchema.nullable())
    .describe(
      "When each link of `generation_output_file` stops working (the create's `generation_output_link_ttl` from when this record was read, capped by the files' deletion); null for a public URL of the account's own bucket.",
    ),
  generation_output_expires_at: dateTimeSchema
    .nullable()
    .describe(
      "When this service deletes its output files: the plan's output retention after completion, or the create's shorter `generation_output_retention`. Null before completion, and when every file is in the account's own storage.",
    ),
  generation_provider_used: z.string().nullable().describe("The provider that ran (or is running) the job; null before one accepted it."),
  generation_prediction_id: z.string().nullable().describe("The provider-side prediction id; null before a provider accepted the job."),
  generation_started_at: dateTimeSchema.nullable(),
  generation_completed_at: dateTimeSchema.nullable().describe("When the generation reached a terminal state."),
  generation_metrics_total_time: secondsSchema.describe("Seconds from creation to completion; null until terminal."),
  generation_metrics_predict_time: secondsSchema.describe("Seconds the provider spent on the job; null until known."),
  generation_deadline_at: dateTimeSchema
    .nullable()
    .describe("When the generation is canceled if it has not finished (its create's `Cancel-After` from its creation); null without one."),
  generation_error: z
    .string()
    .nullable()
    .optional()
    .describe(
      "Why it failed, or why it was canceled at its deadline. Present only when the status is `failed`, or `canceled` with ERR4006.",
    ),
  generation_error_code: errorCodeSchema
    .nullable()
    .optional()
    .describe(
      "An ERR4xxx provider code (or ERR5000) when `failed`; ERR4006 `deadline_exceeded` when `canceled` at its `Cancel-After` deadline. Absent otherwise (a cancel asked for by the client has none).",
    ),
  generation_duration: z.number().nullable().optional().describe("Video records only: the duration in seconds."),
  generation_resolution: z.string().nullable().optional().describe("Video records only: the resolution."),
  generation_generate_audio: z.boolean().optional().describe("Video records only: whether audio was generated."),
  generation_removed: z.literal("true").optional().describe("Present, as the text `true`, only when the output files were removed."),
});

export const createGenerationResponseSchema = z.object({
  model_identifier: modelIdentifierSchema,
  generation_provider_order: z.array(z.string()).min(1).describe("The providers that will be tried, in order."),
  generation_prediction_id: z
    .string()
    .nullable()
    .describe(
      "The provider-side id when a provider already accepted the job; usually null here, since execution starts after the response. Poll the record.",
    ),
  generation_id: uuidSchema,
  generation_initialized: z.boolean().describe("true: credits are reserved and the generation is `pending`."),
  generation_record: generationRecordSchema
    .optional()
    .describe(
      "Only with `Prefer: wait`: the generation record as `GET /v1/content/{generation_id}` shows it, once finished or when the wait ran out (then still `pending` or `processing`).",
    ),
});

export const contentListQuerySchema = z
  .object({
    limit: integerQueryParam({ min: 1, max: 100, default: 50 }).describe("Page size."),
    offset: optionalIntegerQueryParam({ min: 0, default: 0 }).describe("Records to skip, newest first. Not with `starting_after`."),
    starting_after: textQueryParam(z.guid("must be a generation id")).describe(
      "A generation id (usually the last one of the previous page, `next_cursor`): the page starts right after it, newest first. Pages read this way never repeat or skip a generation while new ones are created. Not with `offset`; an id that is not one of the account's generations (or was deleted by retention) is ERR1001.",
    ),
  })
  .superRefine((query, context) => {
    if (query.starting_after === undefined || query.offset === undefined) return;
    context.addIssue({ code: "custom", path: ["starting_after"], message: "cannot be combined with offset" });
    context.addIssue({ code: "custom", path: ["offset"], message: "cannot be combined with starting_after" });
  });

export const contentListSchema = z.object({
  generations: z.array(generationRecordSchema).describe("The account's generations, newest first."),
});

export const cancelGenerationResponseSchema = z.object({
  generation_id: uuidSchema,
  generation_status: z.literal("canceled"),
  provider_cancel_sent: z.boolean().describe("Whether a cancel request reached the provider (best effort)."),
  credits_refunded: z.boolean().describe("Whether this cancel returned credits to the balance."),
  credits_refunded_amount: creditsSchema.min(0).describe("Credits returned to the balance by this cancel; 0 when none were held."),
});

export const deleteGenerationResponseSchema = z.object({
  generation_id: uuidSchema,
  files_deleted: z.int().min(0).describe("Stored output files removed."),
});

/**
 * Every field any model of the kind accepts, with the union of their allowed values. The exact
 * per-model bodies are in the `x-darkroom-models` extension of the request body.
 */
export function mediaKindRequestSchema(kind: ModelType) {
  const models = listModels().filter((model) => model.type === kind);
  const videos = models.flatMap((model) => (model.type === "video" ? [model] : []));
  const union = <T>(pick: (model: ModelDefinition) => readonly T[]) => [...new Set(models.flatMap(pick))];
  const requiredByAll = (test: (model: ModelDefinition) => boolean) => models.every(test);
  const optionalUnless = <T extends z.ZodType>(schema: T, required: boolean) => (required ? schema : schema.optional());
  const textEnum = (values: string[]) => z.enum(values as [string, ...string[]]);
  const maxOutputs = Math.max(...models.map((model) => model.maxOutputs));
  const maxInputs = Math.max(0, ...models.map((model) => model.inputFiles?.max ?? 0));

  const shape = {
    generation_prompt: optionalUnless(
      z.string().min(1).max(PROMPT_MAX_LENGTH).describe("The prompt. Required when the model's `schema.generation_prompt` is true."),
      requiredByAll((model) => model.promptRequired),
    ),
    generation_ratio: textEnum(union((model) => model.ratios))
      .optional()
      .describe("Aspect ratio; allowed values are model-specific. Default: the model's first."),
    generation_output_format: textEnum(union((model) => model.formats))
      .optional()
      .describe("Output format; allowed values are model-specific. Default: the model's first."),
    generation_output_number: z.int().min(1).max(maxOutputs).optional().describe("Outputs to make, up to the model's maximum. Default 1."),
    generation_provider_order: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe("`fastest` or a comma-separated list of provider ids. Multi-provider models default to `fastest`."),
    generation_output_retention: z
      .string()
      .regex(/^\d{1,7}(s|m|h|d)$/)
      .optional()
      .describe(
        "How long the output files are kept after completion (`30m`, `1h`, `7d`): from 1m to the plan's output retention, the default.",
      ),
    generation_output_link_ttl: z
      .string()
      .regex(/^\d{1,7}(s|m|h|d)$/)
      .optional()
      .describe("How long each output link lives from when it is issued (`90s`, `15m`, `1h`, up to `7d`), never past the files' deletion."),
    ...(maxInputs > 0
      ? {
          generation_input_file: optionalUnless(
            z.array(fileUrlSchema).min(1).max(maxInputs),
            requiredByAll((model) => model.inputFiles?.required === true),
          ).describe("Public http(s) URLs of input images, for models whose `schema.generation_input_file` is true."),
        }
      : {}),
    ...(kind === "video"
      ? {
          generation_input_file_last_content: fileUrlSchema
            .optional()
            .describe("End-frame URL, for models that list it in `specific_schema`."),
          generation_duration: optionalUnless(
            z.literal(union((model) => (model.type === "video" ? model.durations : []))),
            requiredByAll((model) => model.type === "video"),
          ).describe("Seconds; allowed values are model-specific."),
          generation_resolution: textEnum([...new Set(videos.flatMap((model) => model.resolutions.map((entry) => entry.id)))])
            .optional()
            .describe("Allowed values are model-specific. Default: the model's default."),
          generation_generate_audio: z
            .boolean()
            .optional()
            .describe("Generate audio, for models that list it in `specific_schema`. Default false."),
        }
      : {}),
  };
  return z.strictObject(shape);
}

export type GenerationRecord = z.infer<typeof generationRecordSchema>;
export type CreateGenerationResponse = z.infer<typeof createGenerationResponseSchema>;
export type ContentListQuery = z.output<typeof contentListQuerySchema>;
export type ContentList = z.infer<typeof contentListSchema>;
export type CancelGenerationResponse = z.infer<typeof cancelGenerationResponseSchema>;
export type DeleteGenerationResponse = z.infer<typeof deleteGenerationResponseSchema>;

/** An event id as sent in `id:` (resume with it in Last-Event-ID or `last_event_id`): opaque, `ev_…`; digits as sent before. */
export const lastEventIdSchema = z.string().regex(/^(ev_[A-Za-z0-9_-]{22}|\d{1,19})$/, "must be an event id");

export const generationEventsQuerySchema = z.object({
  last_event_id: lastEventIdSchema.optional().describe("Resume after this event id (as the Last-Event-ID header does)."),
});

export const accountEventsQuerySchema = generationEventsQuerySchema.extend({
  model_identifier: z.string().min(1).max(200).optional().describe("Only this model's generations."),
});
