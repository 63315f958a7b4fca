// The legacy path forms that name no parameter, each served as a modern operation's path. One list
// for both sides: Next rewrites them onto the modern routes (next.config.js), and the operations
// list them as their deprecated aliases (server/edge/http/operations), which the edge and the OpenAPI
// document read. Plain JavaScript, so next.config.js can import it.

/** @type {ReadonlyArray<{ operationId: string; path: string; servedAs: string }>} */
export const legacyRewrites = [
  { operationId: "legacyGetProviderHealth", path: "/v1/health/providers", servedAs: "/v1/health/inference/providers" },
  { operationId: "legacyGetAccount", path: "/v1/data/account", servedAs: "/v1/user/account" },
  { operationId: "legacyListImages", path: "/v1/list/image", servedAs: "/v1/content/list" },
  { operationId: "legacyDataListImages", path: "/v1/data/list/image", servedAs: "/v1/content/list" },
];

/** The legacy forms served as `path`, in list order: an operation's `legacyPaths`. */
export function legacyPathsOf(path) {
  return legacyRewrites.filter((form) => form.servedAs === path).map(({ operationId, path: legacy }) => ({ operationId, path: legacy }));
}
