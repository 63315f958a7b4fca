import "server-only";
import { modelsForProvider } from "../../../catalog/index";
import type { ModelDefinition, ModelType } from "../../../catalog/models";
import { formatCredits } from "../../../base/money";
import { listPriceMillis, pricingBreakdown, type PricingBreakdown } from "../../../catalog/pricing";
import type { Workflow } from "../../../catalog/model-data";
import { providerImplementation, type ImplementationSettings, type ProviderImplementation } from "../../../providers/implementation";
import type { DisabledCatalog } from "../../../catalog/disabled-catalog";
import { modelStatus, type ModelStatus } from "../../../catalog/model-status";
import {
  providerStatus,
  type DeliveryMethod,
  type ProviderDefinition,
  type ProviderId,
  type ProviderStatus,
} from "../../../catalog/providers";

// The /v1/library entries, field for field under their public names. The routes wrap these in
// `{models_total, models}` and `{providers_total, providers}`.

export type SpecificField =
  "generation_duration" | "generation_resolution" | "generation_generate_audio" | "generation_input_file_last_content";

/** Allowed values of the model-specific fields; a free-form URL field has none to list. */
export type SpecificSchemaOptions = {
  generation_duration?: number[];
  generation_resolution?: string[];
  generation_generate_audio?: boolean[];
};

/** Video models only: allowed durations and resolutions, and whether audio can be generated. */
export type VideoSchemaFields = {
  generation_duration?: number[];
  generation_resolution?: string[];
  generation_generate_audio?: boolean;
};

export type LibraryModelEntry = {
  model_type: ModelType;
  model_identifier: string;
  model_name: string;
  model_pricing: number;
  model_pricing_breakdown: PricingBreakdown;
  model_workflows: Workflow[];
  model_supported_provider: ProviderId[];
  /** The common fields; a video model also lists its duration, resolution and audio values here. */
  schema: {
    generation_prompt: boolean;
    generation_ratio: string[];
    generation_output_format: string[];
    generation_output_number: number;
    generation_input_file: boolean;
  } & VideoSchemaFields;
  specific_schema: SpecificField[];
  specific_schema_options: SpecificSchemaOptions;
  model_status: ModelStatus;
};

export type LibraryProviderEntry = {
  provider_id: ProviderId;
  provider_name: string;
  provider_description: string;
  provider_website: string;
  provider_docs: string;
  provider_status: ProviderStatus;
  /** The documented `integration` and arrays, plus, flat, the fields existing clients read. */
  darkroom_implementation: ProviderImplementation & {
    supported_media_types: ModelType[];
    supported_models_total: number;
    integration: {
      delivery_method: DeliveryMethod;
      webhook_signature: string;
      supports_cancel: boolean;
      timeout_seconds: number;
    };
    capabilities: string[];
    supported_models: string[];
  };
};

/** What decides a model's and a provider's status: the configured provider ids and what the operator turned off. */
export type CatalogAvailability = { configured: ReadonlySet<string>; disabled: DisabledCatalog };

export function shapeLibraryModel(model: ModelDefinition, availability: CatalogAvailability): LibraryModelEntry {
  const specific: SpecificField[] = [];
  const options: SpecificSchemaOptions = {};
  const video: VideoSchemaFields = {};
  if (model.type === "video") {
    specific.push("generation_duration", "generation_resolution");
    video.generation_duration = [...model.durations];
    video.generation_resolution = model.resolutions.map((entry) => entry.id);
    video.generation_generate_audio = model.audioPerSecondMillis !== null;
    options.generation_duration = [...video.generation_duration];
    options.generation_resolution = [...video.generation_resolution];
    if (video.generation_generate_audio) {
      specific.push("generation_generate_audio");
      options.generation_generate_audio = [false, true];
    }
    if (model.lastFrame) specific.push("generation_input_file_last_content");
  }
  return {
    model_type: model.type,
    model_identifier: model.identifier,
    model_name: model.name,
    model_pricing: formatCredits(listPriceMillis(model)),
    model_pricing_breakdown: pricingBreakdown(model),
    model_workflows: [...model.workflows],
    model_supported_provider: [...model.providers],
    // Clients of this API shape read a video model's values from `schema`: its
    // durations and resolutions, and (like `generation_input_file`) whether audio is offered.
    schema: {
      generation_prompt: model.promptRequired,
      generation_ratio: [...model.ratios],
      generation_output_format: [...model.formats],
      generation_output_number: model.maxOutputs,
      generation_input_file: model.inputFiles !== null,
      ...video,
    },
    specific_schema: specific,
    specific_schema_options: options,
    model_status: modelStatus(model, availability.configured, availability.disabled),
  };
}

/**
 * `configuredProviders` holds the ids whose credentials the env provides; `settings` what else
 * the env decides about the adapters (by default, what they do with no optional setting);
 * `disabledProviders` the ids the operator turned off.
 */
export function shapeLibraryProvider(
  provider: ProviderDefinition,
  configuredProviders: ReadonlySet<string>,
  settings: ImplementationSettings = { replicateWebhooks: false },
  disabledProviders: ReadonlySet<string> = new Set(),
): LibraryProviderEntry {
  const implementation = providerImplementation(provider.id, settings);
  const supported = modelsForProvider(provider.id);
  return {
    provider_id: provider.id,
    provider_name: provider.name,
    provider_description: provider.description,
    provider_website: provider.website,
    provider_docs: provider.docs,
    provider_status: providerStatus(provider, configuredProviders.has(provider.id), disabledProviders.has(provider.id)),
    darkroom_implementation: {
      ...implementation,
      supported_media_types: mediaTypesOf(supported),
      supported_models_total: supported.length,
      integration: {
        delivery_method: implementation.delivery_method,
        webhook_signature: provider.webhookSignature,
        supports_cancel: provider.supportsCancel,
        timeout_seconds: provider.timeoutSeconds,
      },
      capabilities: [...provider.capabilities],
      supported_models: supported.map((model) => model.identifier),
    },
  };
}

/** Image before video, each once. */
function mediaTypesOf(supported: readonly ModelDefinition[]): ModelType[] {
  return (["image", "video"] as const).filter((type) => supported.some((model) => model.type === type));
}
