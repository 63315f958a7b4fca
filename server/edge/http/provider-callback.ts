import "server-only";
import { db } from "../../base/db";
import { errorResponse, newRequestId, successResponse } from "./envelope";
import { ApiError } from "../../base/error-table";
import { readJsonBody } from "./read-json-body";
import { log } from "../../base/log";
import { CallbackRejectedError } from "../../providers/http-errors";
import { adapterFor } from "../../providers/registry";
import { sendProviderResult } from "../../providers/send-provider-result";

// A provider's callback wakes the waiting run (providerResultReceived); the run then asks the
// provider for the authoritative result, so a forged or replayed callback can at worst cause one
// extra poll. Bodies are capped (ERR1011) and signatures checked before anything else.

export const MAX_CALLBACK_BYTES = 1024 * 1024;

export async function handleProviderCallback(request: Request, provider: string): Promise<Response> {
  const requestId = newRequestId();
  try {
    const { raw } = await readJsonBody(request, MAX_CALLBACK_BYTES);
    let adapter;
    try {
      adapter = adapterFor(provider);
    } catch {
      throw new ApiError("ERR1006", `No provider ${provider}.`);
    }
    if (!adapter.parseCallback) throw new ApiError("ERR1006", `${provider} sends no callbacks.`);
    let parsed;
    try {
      parsed = await adapter.parseCallback({ headers: request.headers, rawBody: raw });
    } catch (error) {
      if (!(error instanceof CallbackRejectedError)) throw error;
      log.warn("provider callback refused", { provider, error: String(error) });
      throw new ApiError("ERR1002", "The callback signature is invalid.");
    }
    const attempt = await db.providerAttempt.findFirst({
      where: { provider, predictionId: parsed.predictionId },
      select: { generationId: true },
    });
    if (attempt) {
      await sendProviderResult("callback", attempt.generationId, provider, parsed.predictionId, parsed.result.status);
    }
    return successResponse({ received: true, matched: attempt !== null }, { requestId });
  } catch (error) {
    // Anything but a refusal (our key set unreachable, the database down) is a 5xx: the provider
    // retries the callback.
    if (!(error instanceof ApiError)) log.error("provider callback failed", { provider, error: String(error) });
    return errorResponse(error instanceof ApiError ? error : new ApiError("ERR5000"), requestId);
  }
}
