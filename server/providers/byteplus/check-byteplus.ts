import "server-only";
import { checkProvider, isRecord, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// ModelArk lists its models only in the management API (signed with an access key, not the API
// key), so the key is confirmed by the content generation task list,
// GET /contents/generations/tasks?page_num=1&page_size=1 (`{items, total}`), and models are not checked.

export function checkByteplus(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  const credential = {
    what: "GET /contents/generations/tasks",
    send: () => get("/contents/generations/tasks?page_num=1&page_size=1"),
    understood: (body: unknown) => isRecord(body) && Array.isArray(body.items),
  };
  return checkProvider({ provider: "byteplus", credential }, providerModelIds);
}
