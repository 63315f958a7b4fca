// Where each operation sits in the SDKs (as Stainless's `resources:` config does for openai-node):
// the resource (null: on the client itself) and the method name, the same in both languages
// (Python snake-cases it). An operation left out lands on its tag's resource under its operationId.

export type Placement = {
  resource: string | null;
  method: string;
  /** The TypeScript options type, when the operation has query parameters. */ options?: string;
};

export const placements: Record<string, Placement> = {
  getStatus: { resource: null, method: "status" },
  getUsage: { resource: null, method: "usage", options: "UsageOptions" },
  exportUsage: { resource: null, method: "exportUsage", options: "ExportUsageOptions" },
  getAccount: { resource: null, method: "account" },
  getBilling: { resource: null, method: "billing" },
  getEstimate: { resource: null, method: "estimate", options: "EstimateOptions" },
  createImageGeneration: { resource: "generate", method: "image" },
  createVideoGeneration: { resource: "generate", method: "video" },
  getGeneration: { resource: "generations", method: "get" },
  listGenerations: { resource: "generations", method: "list", options: "ListOptions" },
  cancelGeneration: { resource: "generations", method: "cancel" },
  deleteGeneration: { resource: "generations", method: "delete" },
  streamGenerationEvents: { resource: "generations", method: "stream" },
  streamAccountEvents: { resource: "events", method: "stream" },
  getProviderHealth: { resource: "health", method: "providers" },
  getModelHealth: { resource: "health", method: "models" },
  getStorageHealth: { resource: "health", method: "storage" },
  getCacheHealth: { resource: "health", method: "cache" },
  listProviders: { resource: "library", method: "providers" },
  listModels: { resource: "library", method: "models" },
};

/** The resource of an operation no placement names: its tag, in lower case. */
export const resourceOfTag = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, "_");

/** Resources with hand-written helpers (lib code): the client gets the subclass these modules export under the same name. */
export const extendedResources: Record<string, { typescript: string; python: string }> = {
  generations: { typescript: "../generations.js", python: "._generations" },
};

/** Path parameters the SDKs name differently from the wire. */
export const argumentNames: Record<string, string> = { model_identifier: "model" };
