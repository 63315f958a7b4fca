import { modelsForProvider } from "./index";
import type { ModelDefinition, ModelType } from "./models";
import { formatCredits } from "./money";
import { listPriceMillis } from "./pricing";
import { providerStatus, type DeliveryMethod, type ProviderDefinition, type ProviderId, type ProviderStatus } from "./providers";

// The /v1/library entries, field for field as the spec names them. The routes wrap these in
// `{models_total, models}` and `{providers_total, providers}`.

export type SpecificField =
  | "generation_duration"
  | "generation_resolution"
  | "generation_generate_audio"
  | "generation_input_file_last_content";

/** Allowed values of the model-specific fields; a free-form URL field has none to list. */
export type SpecificSchemaOptions = {
  generation_duration?: number[];
  generation_resolution?: string[];
  generation_generate_audio?: boolean[];
};

export type LibraryModelEntry = {
  model_type: ModelType;
  model_identifier: string;
  model_pricing: number;
  model_supported_provider: ProviderId[];
  schema: {
    generation_prompt: boolean;
    generation_ratio: string[];
    generation_output_format: string[];
    generation_output_number: number;
    generation_input_file: boolean;
  };
  specific_schema: SpecificField[];
  specific_schema_options: SpecificSchemaOptions;
};

export type LibraryProviderEntry = {
  provider_id: ProviderId;
  provider_name: string;
  provider_description: string;
  provider_website: string;
  provider_docs: string;
  provider_status: ProviderStatus;
  darkroom_implementation: {
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

export function shapeLibraryModel(model: ModelDefinition): LibraryModelEntry {
  const specific: SpecificField[] = [];
  const options: SpecificSchemaOptions = {};
  if (model.type === "video") {
    specific.push("generation_duration", "generation_resolution");
    options.generation_duration = [...model.durations];
    options.generation_resolution = model.resolutions.map((entry) => entry.id);
    if (model.audioPerSecondMillis !== null) {
      specific.push("generation_generate_audio");
      options.generation_generate_audio = [false, true];
    }
    if (model.lastFrame) specific.push("generation_input_file_last_content");
  }
  return {
    model_type: model.type,
    model_identifier: model.identifier,
    model_pricing: formatCredits(listPriceMillis(model)),
    model_supported_provider: [...model.providers],
    schema: {
      generation_prompt: model.promptRequired,
      generation_ratio: [...model.ratios],
      generation_output_format: [...model.formats],
      generation_output_number: model.maxOutputs,
      generation_input_file: model.inputFiles !== null,
    },
    specific_schema: specific,
    specific_schema_options: options,
  };
}

/** `configuredProviders` holds the ids whose credentials the env provides. */
export function shapeLibraryProvider(provider: ProviderDefinition, configuredProviders: ReadonlySet<string>): LibraryProviderEntry {
  return {
    provider_id: provider.id,
    provider_name: provider.name,
    provider_description: provider.description,
    provider_website: provider.website,
    provider_docs: provider.docs,
    provider_status: providerStatus(provider, configuredProviders.has(provider.id)),
    darkroom_implementation: {
      integration: {
        delivery_method: provider.deliveryMethod,
        webhook_signature: provider.webhookSignature,
        supports_cancel: provider.supportsCancel,
        timeout_seconds: provider.timeoutSeconds,
      },
      capabilities: [...provider.capabilities],
      supported_models: modelsForProvider(provider.id).map((model) => model.identifier),
    },
  };
}
