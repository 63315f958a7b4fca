import type { AnyOperation } from "../define-operation";
import * as account from "./account";
import * as catalog from "./catalog";
import * as downloads from "./downloads";
import * as generations from "./generations";
import * as health from "./health";
import * as streams from "./streams";

// The registry of /v1 operations, in the order the OpenAPI document lists them.

export { account, catalog, downloads, generations, health, streams };

export const v1Operations: readonly AnyOperation[] = [
  account.getStatus,
  account.getUsage,
  account.getAccount,
  account.getBilling,
  catalog.getEstimate,
  generations.createImageGeneration,
  generations.createVideoGeneration,
  generations.getGeneration,
  generations.listGenerations,
  generations.deleteGeneration,
  generations.cancelGeneration,
  health.getProviderHealth,
  health.getModelHealth,
  health.getStorageHealth,
  health.getCacheHealth,
  catalog.listProviders,
  catalog.listModels,
];

/** The Server-Sent Events operations (text/event-stream, never an envelope on success). */
export const streamOperations: readonly AnyOperation[] = [streams.streamGenerationEvents, streams.streamAccountEvents];

/** The downloads (text/csv files, streamed; never an envelope on success). */
export const downloadOperations: readonly AnyOperation[] = [downloads.exportUsage];
