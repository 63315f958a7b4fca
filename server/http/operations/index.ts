import "server-only";
import type { AnyOperation } from "../define-operation";
import * as account from "./account";
import * as catalog from "./catalog";
import * as generations from "./generations";
import * as health from "./health";

// The registry of /v1 operations, in the order the OpenAPI document lists them.

export { account, catalog, generations, health };

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

const shapeOf = (path: string) => path.replace(/\{[^}]+\}/g, "{}");

/** The methods served at a path template, modern or legacy (405's Allow), from the registry. */
export function methodsServedAt(path: string): string[] {
  const shape = shapeOf(path);
  const paths = (operation: AnyOperation) => [operation.path, ...operation.legacyPaths.map((legacy) => legacy.path)];
  return v1Operations.filter((operation) => paths(operation).some((candidate) => shapeOf(candidate) === shape)).map((operation) => operation.method);
}
