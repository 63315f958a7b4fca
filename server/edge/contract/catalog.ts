import { z } from "zod";
import { workflows } from "../../catalog/model-data";
import { providerIds } from "../../catalog/providers";
import { ESTIMATE_MAX_COUNT } from "../../catalog/estimate";
import { creditsSchema, modelIdentifierSchema } from "./common";
import { booleanQueryParam, clampedIntegerQueryParam, numberQueryParam, textQueryParam } from "./query";

// GET /v1/library/models, /v1/library/providers and /v1/estimate/{model_identifier},
// including the estimate's video fields and `darkroom_implementation`.

export const modelTypeSchema = z.enum(["image", "video"]);
export const providerIdSchema = z.enum(providerIds);
const deliveryMethodSchema = z.enum(["webhook", "polling", "synchronous"]);

export const workflowSchema = z.enum(workflows);

const creditsByKey = z.record(z.string(), creditsSchema);
export const pricingBreakdownSchema = z
  .discriminatedUnion("unit", [
    z.object({
      unit: z.literal("image"),
      price_per_image: creditsSchema.describe("At the default ratio."),
      price_per_image_by_ratio: creditsByKey.describe("One picture's price at each ratio."),
    }),
    z.object({
      unit: z.literal("megapixel"),
      price_per_megapixel: creditsSchema,
      megapixels_by_ratio: z.record(z.string(), z.number()).describe("The output size at each ratio, in megapixels."),
      price_per_image_by_ratio: creditsByKey.describe("One picture's price at each ratio: megapixels × price, rounded up to 0.001."),
    }),
    z.object({
      unit: z.literal("second"),
      price_per_second_by_resolution: creditsByKey.describe("Per second of output at each resolution, without audio."),
      audio_price_per_second: creditsSchema
        .nullable()
        .describe("Added per second when `generation_generate_audio` is true; null when audio is not offered."),
    }),
  ])
  .describe(
    "The price as the model is priced: per picture (by ratio), per megapixel, or per second by resolution with an audio surcharge. `model_pricing` is its headline number.",
  );
export const modelStatusSchema = z
  .enum(["active", "not_configured", "disabled"])
  .describe(
    "`active`: a provider of it is configured and not turned off. `not_configured`: this deployment has credentials for none of its providers. `disabled`: turned off on this deployment (CATALOG_DISABLED_MODELS), or every provider of it that is configured is turned off (CATALOG_DISABLED_PROVIDERS); creates and estimates are refused with ERR1012.",
  );

export const specificFields = [
  "generation_duration",
  "generation_resolution",
  "generation_generate_audio",
  "generation_input_file_last_content",
] as const;

export const libraryModelSchema = z.object({
  model_type: modelTypeSchema,
  model_identifier: modelIdentifierSchema,
  model_name: z.string().describe("The model's display name."),
  model_pricing: creditsSchema.describe(
    "Per output for images (at the default ratio); per second at the default resolution without audio for videos.",
  ),
  model_pricing_breakdown: pricingBreakdownSchema,
  model_workflows: z
    .array(workflowSchema)
    .min(1)
    .describe(
      "What the model does: `text-to-image`, `image-edit` (input images), `text-to-video`, `image-to-video`, `first-last-frame`, `video-with-audio`, `video-to-video`.",
    ),
  model_supported_provider: z
    .array(providerIdSchema)
    .min(1)
    .describe("Providers in catalog order, the failover order when routing has no data."),
  schema: z
    .object({
      generation_prompt: z.boolean().describe("Whether `generation_prompt` is required."),
      generation_ratio: z.array(z.string()).describe("Allowed `generation_ratio` values; the first is the default."),
      generation_output_format: z.array(z.string()).describe("Allowed `generation_output_format` values; the first is the default."),
      generation_output_number: z.int().min(1).describe("The maximum `generation_output_number`."),
      generation_input_file: z.boolean().describe("Whether the model takes `generation_input_file`."),
      generation_duration: z.array(z.number()).optional().describe("Video models only: allowed `generation_duration` values (seconds)."),
      generation_resolution: z.array(z.string()).optional().describe("Video models only: allowed `generation_resolution` values."),
      generation_generate_audio: z.boolean().optional().describe("Video models only: whether `generation_generate_audio` can be true."),
    })
    .describe("The create fields as this model accepts them; video models also list duration, resolution and audio here."),
  specific_schema: z.array(z.enum(specificFields)).describe("Model-specific create fields this model accepts."),
  specific_schema_options: z
    .object({
      generation_duration: z.array(z.number()).optional(),
      generation_resolution: z.array(z.string()).optional(),
      generation_generate_audio: z.array(z.boolean()).optional(),
    })
    .describe("Allowed values of the model-specific fields that have a fixed list."),
  model_status: modelStatusSchema,
});

function oneOfText<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}

export const libraryModelsQuerySchema = z.object({
  type: textQueryParam(oneOfText(["image", "video"])).describe("Only models of this media type."),
  provider: textQueryParam(oneOfText(providerIds)).describe("Only models this provider serves."),
  workflow: textQueryParam(oneOfText(workflows)).describe("Only models offering this workflow."),
});

export const libraryModelsSchema = z.object({
  models_total: z.int().min(0),
  models: z.array(libraryModelSchema),
});

export const libraryProviderSchema = z.object({
  provider_id: providerIdSchema,
  provider_name: z.string(),
  provider_description: z.string(),
  provider_website: z.string(),
  provider_docs: z.string(),
  provider_status: z
    .enum(["active", "not_configured", "disabled"])
    .describe(
      "`not_configured`: this deployment has no credentials for it. `disabled`: turned off on this deployment (CATALOG_DISABLED_PROVIDERS); routing skips it.",
    ),
  darkroom_implementation: z
    .object({
      delivery_method: deliveryMethodSchema.describe(
        "How results reach Darkroom with this deployment's settings; the same as `integration.delivery_method`.",
      ),
      cancel_method: z.string().describe("How a cancel reaches the provider."),
      webhook_verification: z.string().describe("How the provider's callbacks are verified; `none…` when it sends none."),
      error_mapping: z.string().describe("How the provider's failures map to ERR4001/ERR4002/ERR4005."),
      cost_tracking: z.string().describe("How the cost of each attempt is recorded."),
      schema_conversion: z.string().describe("How the normalized request becomes the provider's input."),
      failover_strategy: z.string().describe("When the next provider in the chain takes over."),
      health_monitoring: z.string().describe("What health and routing judge the provider by."),
      supported_media_types: z.array(modelTypeSchema).describe("Media types of the models it serves."),
      supported_models_total: z.int().min(0).describe("Length of `supported_models`."),
      integration: z.object({
        delivery_method: deliveryMethodSchema,
        webhook_signature: z.string().describe("Scheme and header of the provider's callbacks; `none` when it sends none."),
        supports_cancel: z.boolean(),
        timeout_seconds: z.int().min(1),
      }),
      capabilities: z.array(z.string()).describe("e.g. `text-to-image`, `image-to-video`, `audio`."),
      supported_models: z.array(modelIdentifierSchema),
    })
    .describe("How Darkroom integrates the provider (spec: `<service>_implementation`)."),
});

export const libraryProvidersSchema = z.object({
  providers_total: z.int().min(0),
  providers: z.array(libraryProviderSchema),
});

export const estimateQuerySchema = z.object({
  count: clampedIntegerQueryParam({ min: 1, max: ESTIMATE_MAX_COUNT, default: 1 }).describe(
    `Number of outputs. Values below 1 count as 1 and values above ${ESTIMATE_MAX_COUNT} as ${ESTIMATE_MAX_COUNT}; text that is not an integer is ERR1001.`,
  ),
  ratio: textQueryParam(z.string()).describe(
    "One of the model's `schema.generation_ratio`: the picture size priced (per-megapixel and by-ratio prices differ by size). Default: the model's default ratio.",
  ),
  duration: numberQueryParam().describe(
    "Video only: seconds, one of the model's `specific_schema_options.generation_duration`. Default: the model's default.",
  ),
  resolution: textQueryParam(z.string()).describe(
    "Video only: one of the model's `specific_schema_options.generation_resolution`. Default: the model's default.",
  ),
  audio: booleanQueryParam().describe("Video only: price with generated audio (`true`, `false`, `1`, `0`). Default false."),
});

export const estimateSchema = z.object({
  model_identifier: modelIdentifierSchema,
  model_type: modelTypeSchema,
  assets_count: z.int().min(1).max(ESTIMATE_MAX_COUNT).describe("The count priced, after clamping."),
  cost_per_generation: creditsSchema.describe("Cost of one output."),
  cost_total_consumed: creditsSchema.describe("cost_per_generation × assets_count: what a create would reserve."),
  credit_balance: creditsSchema,
  credit_balance_can_afford: z
    .boolean()
    .describe("Whether a create of this configuration would pass both the balance and the spend limits (ERR1004, ERR1014)."),
  credit_balance_max_affordable: z
    .int()
    .min(0)
    .describe("How many outputs of this configuration the balance pays for, within the spend limits."),
  apikey_spend_remaining: creditsSchema
    .nullable()
    .describe(
      "Credits this key may still spend now: the smaller room of its own spend limit and the account's monthly limit; null when neither has one.",
    ),
  cost_per_second: creditsSchema.optional().describe("Video only: resolution price plus audio price, per second."),
  duration_seconds: z.number().optional().describe("Video only: the duration priced."),
  resolution: z.string().optional().describe("Video only: the resolution priced."),
  generate_audio: z.boolean().optional().describe("Video only: whether audio was priced."),
});

export type LibraryModel = z.infer<typeof libraryModelSchema>;
export type LibraryProvider = z.infer<typeof libraryProviderSchema>;
export type EstimateQuery = z.output<typeof estimateQuerySchema>;
export type LibraryModelsQuery = z.output<typeof libraryModelsQuerySchema>;
export type Estimate = z.infer<typeof estimateSchema>;
