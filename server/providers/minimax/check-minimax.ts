import "server-only";
import { checkProvider, isRecord, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// MiniMax publishes no model read endpoint: the key is confirmed by the file list
// (GET /v1/files/list?purpose=t2a_async_input, https://platform.minimax.io/docs/api-reference/file-management-list),
// which answers HTTP 200 with `base_resp.status_code` 0, or the code of the failure: 1004 / 2049
// are a refused key, 1002 / 1039 a rate limit, 1000 / 1001 / 1013 a fault on MiniMax's side.

const refusedCodes = new Set([1004, 2049]);
const unavailableCodes = new Set([1000, 1001, 1002, 1013, 1039]);

export function checkMiniMax(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  return checkProvider(
    {
      provider: "minimax",
      credential: {
        what: "GET /v1/files/list",
        send: () => get("/v1/files/list?purpose=t2a_async_input"),
        understood: (body) => isRecord(body) && Array.isArray(body.files) && statusCode(body) === 0,
      },
      classify: (response) => {
        const code = statusCode(response.body);
        if (code === null) return null;
        if (refusedCodes.has(code)) return { state: "refused", code: `base_resp ${code}` };
        return unavailableCodes.has(code) ? { state: "unreachable", code: `base_resp ${code}` } : null;
      },
    },
    providerModelIds,
  );
}

function statusCode(body: unknown): number | null {
  return isRecord(body) && isRecord(body.base_resp) && typeof body.base_resp.status_code === "number" ? body.base_resp.status_code : null;
}
