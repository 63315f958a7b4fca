import type { z } from "zod";
import { listModels, type ModelDefinition } from "../../catalog/index";
import { generationRequestSchema } from "../../catalog/request-schema";
import { accountProfileSchema, billingSummarySchema, keyStatusSchema, usageSummarySchema } from "./account";
import { estimateSchema, libraryModelSchema, libraryModelsSchema, libraryProviderSchema, libraryProvidersSchema } from "./catalog";
import { errorBodySchema, errorCodeSchema, errorEnvelopeSchema, fieldErrorSchema } from "./common";
import {
  cancelGenerationResponseSchema,
  contentListSchema,
  createGenerationResponseSchema,
  deleteGenerationResponseSchema,
  generationRecordSchema,
  generationStatusSchema,
  mediaKindRequestSchema,
} from "./generations";
import { cacheHealthSchema, modelsHealthSchema, providersHealthSchema, storageHealthSchema } from "./health";
import { usageExportFocusRowSchema, usageExportRowSchema } from "./usage-export";
import { generationAttemptEventSchema, generationCanceledEventSchema, streamResetEventSchema } from "./live-events";

export * from "./account";
export * from "./catalog";
export * from "./common";
export * from "./generations";
export * from "./health";
export * from "./live-events";
export * from "./usage-export";
export { parseQuery } from "./query";

// The named shapes of the document: each becomes components.schemas[<name>] and is $ref'd
// wherever it appears, so a client generator gets one type per shape.

export const responseComponents = {
  ErrorCode: errorCodeSchema,
  FieldError: fieldErrorSchema,
  ErrorBody: errorBodySchema,
  ErrorResponse: errorEnvelopeSchema,
  KeyStatus: keyStatusSchema,
  UsageSummary: usageSummarySchema,
  UsageExportRow: usageExportRowSchema,
  UsageExportFocusRow: usageExportFocusRowSchema,
  AccountProfile: accountProfileSchema,
  BillingSummary: billingSummarySchema,
  Estimate: estimateSchema,
  LibraryModel: libraryModelSchema,
  LibraryModelList: libraryModelsSchema,
  LibraryProvider: libraryProviderSchema,
  LibraryProviderList: libraryProvidersSchema,
  ProvidersHealth: providersHealthSchema,
  ModelsHealth: modelsHealthSchema,
  StorageHealth: storageHealthSchema,
  CacheHealth: cacheHealthSchema,
  GenerationStatus: generationStatusSchema,
  GenerationRecord: generationRecordSchema,
  GenerationCreated: createGenerationResponseSchema,
  GenerationList: contentListSchema,
  GenerationCanceled: cancelGenerationResponseSchema,
  GenerationDeleted: deleteGenerationResponseSchema,
  GenerationAttemptEvent: generationAttemptEventSchema,
  GenerationCanceledEvent: generationCanceledEventSchema,
  StreamResetEvent: streamResetEventSchema,
} satisfies Record<string, z.ZodType>;

export type ResponseComponentName = keyof typeof responseComponents;

/** `GenerationRequest_black-forest-labs_flux-1.1-pro`: component names allow [A-Za-z0-9._-] only. */
export function modelRequestComponentName(model: ModelDefinition): string {
  return `GenerationRequest_${model.identifier.replace(/[^A-Za-z0-9.-]/g, "_")}`;
}

export const mediaKindRequestComponentNames = { image: "GenerationRequestImage", video: "GenerationRequestVideo" } as const;

/** Request bodies, converted as input (defaults are optional there): per kind, and per model. */
export function requestComponents(): Record<string, z.ZodType> {
  const components: Record<string, z.ZodType> = {
    [mediaKindRequestComponentNames.image]: mediaKindRequestSchema("image"),
    [mediaKindRequestComponentNames.video]: mediaKindRequestSchema("video"),
  };
  for (const model of listModels()) {
    components[modelRequestComponentName(model)] = generationRequestSchema(model).meta({
      title: model.identifier,
      description: `The exact create body of ${model.name} (${model.identifier}).`,
    });
  }
  return components;
}
