import "server-only";
import { checkProvider, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// Black Forest Labs publishes no model read endpoint: the key is confirmed by GET /v1/credits
// (CreditsResponse `{credits}`, https://docs.bfl.ai/api-reference/get-the-users-credits).

export function checkBfl(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  const credential = {
    what: "GET /v1/credits",
    send: () => get("/v1/credits"),
    understood: (body: unknown) => typeof (body as { credits?: unknown } | null)?.credits === "number",
  };
  return checkProvider({ provider: "bfl", credential }, providerModelIds);
}
