import "server-only";
import { z } from "zod";
import { classifyHttpFailure, providerErrorFromResponse, type ProviderResponse } from "../http-errors";
import { ProviderError, type ProviderErrorCode } from "../types";

// What MiniMax's answers mean for us (https://platform.minimax.io/docs/api-reference/errorcode).
// MiniMax answers most failures with HTTP 200 and a `base_resp: {status_code, status_msg}` whose
// code is not 0; the code, not the HTTP status, says what went wrong.

const baseRespSchema = z.object({ status_code: z.number().int(), status_msg: z.string().nullish() });

/** Codes with a meaning of their own; any other non-zero code is the provider being unavailable. */
const statusCodes: Record<number, ProviderErrorCode> = {
  1001: "ERR4001", // request timeout
  1026: "ERR4005", // input flagged as sensitive
  1027: "ERR4005", // output flagged as sensitive
  2013: "ERR4005", // invalid parameters
};

/** `base_resp` of an answer, when it has one. */
export function baseRespOf(body: unknown): z.infer<typeof baseRespSchema> | null {
  const parsed = z.object({ base_resp: baseRespSchema }).safeParse(body);
  return parsed.success ? parsed.data.base_resp : null;
}

/** A MiniMax `base_resp` failure code as our error (1002 rate limit, 1004 auth, 1008 balance → ERR4002). */
export function minimaxError(statusCode: number, statusMsg: string | null | undefined, httpStatus: number): ProviderError {
  const code = statusCodes[statusCode] ?? "ERR4002";
  // 1004 / 2049 are our key; the message names the key's group, so it stays out of the record.
  const text =
    statusCode === 1004 || statusCode === 2049
      ? "the provider refused our credentials"
      : (statusMsg ?? "").slice(0, 300) || `status_code ${statusCode}`;
  return new ProviderError("minimax", code, `minimax: ${text}`, `HTTP ${httpStatus} status_code=${statusCode}`);
}

/**
 * The body of a successful exchange, or the ProviderError its status or `base_resp` names. An
 * answer without `base_resp` is not one MiniMax sends: refused as not understood.
 */
export function readMinimaxAnswer(response: ProviderResponse): unknown {
  const baseResp = baseRespOf(response.body);
  if (!response.ok) {
    if (!baseResp || baseResp.status_code === 0) throw providerErrorFromResponse("minimax", response);
    const error = minimaxError(baseResp.status_code, baseResp.status_msg, response.status);
    // A status that always means timeout or unavailable (408, 429, 5xx, 401/403) decides over the code.
    const statusDecides = [401, 403, 408, 429].includes(response.status) || response.status >= 500;
    if (!statusDecides) throw error;
    throw new ProviderError("minimax", classifyHttpFailure(response.status, ""), error.message, error.providerDetail);
  }
  if (!baseResp) throw notUnderstood(response.status, "no base_resp");
  if (baseResp.status_code !== 0) throw minimaxError(baseResp.status_code, baseResp.status_msg, response.status);
  return response.body;
}

/** An answer MiniMax's reference does not describe: asking again would not help, so it ends the attempt. */
export class MiniMaxAnswerNotUnderstood extends ProviderError {
  constructor(httpStatus: number, what: string) {
    super("minimax", "ERR4002", `minimax: the answer is not understood (${what})`, `HTTP ${httpStatus} unexpected body`);
  }
}

export function notUnderstood(httpStatus: number, what: string): ProviderError {
  return new MiniMaxAnswerNotUnderstood(httpStatus, what);
}

/** POST /v1/video_generation. */
export const videoTaskSchema = z.object({ task_id: z.string().min(1) });

/** GET /v1/query/video_generation. `file_id` is a string in the published examples; numbers are read too. */
export const videoQuerySchema = z.object({
  task_id: z.string().optional(),
  status: z.enum(["Preparing", "Queueing", "Processing", "Success", "Fail"]),
  file_id: z.union([z.string(), z.number()]).nullish(),
  video_width: z.number().nullish(),
  video_height: z.number().nullish(),
});

/** GET /v1/files/retrieve. */
export const retrieveFileSchema = z.object({
  file: z.object({ file_id: z.union([z.string(), z.number()]).optional(), filename: z.string().nullish(), download_url: z.string().url() }),
});

/** POST /v1/image_generation: URLs (response_format url) or base64 strings; metadata counts what moderation held back. */
export const imageGenerationSchema = z.object({
  id: z.string().nullish(),
  data: z.object({ image_urls: z.array(z.string().url()).optional(), image_base64: z.array(z.string().min(1)).optional() }).nullish(),
  metadata: z
    .object({ success_count: z.union([z.string(), z.number()]).nullish(), failed_count: z.union([z.string(), z.number()]).nullish() })
    .nullish(),
});
