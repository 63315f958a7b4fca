import "server-only";
import { z } from "zod";
import { classifyHttpFailure, providerErrorFromResponse, type ProviderResponse } from "../http-errors";
import { ProviderError, type ProviderOutput, type ProviderResult } from "../types";

// Reading what the Gemini API answers (ai.google.dev/api): errors are `{error: {code, message,
// status}}` (google.rpc.Status, status names such as RESOURCE_EXHAUSTED); Imagen's :predict answers
// `{predictions: [{bytesBase64Encoded, mimeType}]}` and leaves out pictures its safety filter took
// (`raiFilteredReason` when it says why); :generateContent answers `{candidates: [{content: {parts:
// [{inlineData: {mimeType, data}}]}, finishReason}], promptFeedback: {blockReason}}`; a Veo
// operation is `{name, done, error | response: {generateVideoResponse: {generatedSamples: [{video:
// {uri}}], raiMediaFilteredCount, raiMediaFilteredReasons}}}`.

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** finishReason / blockReason values that mean a safety or policy refusal, not a fault. */
const REFUSALS = new Set([
  "SAFETY",
  "IMAGE_SAFETY",
  "PROHIBITED_CONTENT",
  "IMAGE_PROHIBITED_CONTENT",
  "BLOCKLIST",
  "SPII",
  "RECITATION",
  "IMAGE_RECITATION",
  "OTHER",
]);

const rpcStatusSchema = z.object({ code: z.number().optional(), message: z.string().optional(), status: z.string().optional() }).loose();

export function notUnderstood(status: number, what: string): ProviderError {
  return new ProviderError("google", "ERR4002", `google: the answer was not understood (${what})`, `HTTP ${status} unexpected body`);
}

function refused(what: string, detail: string): ProviderError {
  return new ProviderError("google", "ERR4005", `google: ${what} was refused by the safety filter`, detail);
}

/**
 * A non-2xx answer: Google's `{error: {code, message, status}}` read with its status name as the
 * code. Two 400s are ours, not the request's, so they fail over: an invalid key (reason
 * API_KEY_INVALID) and FAILED_PRECONDITION (the API not offered where we call from, billing off).
 */
export function googleFailure(response: ProviderResponse): ProviderError {
  const parsed = z.object({ error: rpcStatusSchema }).safeParse(response.body);
  if (!parsed.success) return providerErrorFromResponse("google", response);
  const { status, message } = parsed.data.error;
  const error = providerErrorFromResponse("google", { ...response, body: { error: { code: status, message } } });
  const reasons = JSON.stringify(parsed.data.error.details ?? []);
  if (reasons.includes("API_KEY_INVALID"))
    return new ProviderError("google", "ERR4002", "google: the provider refused our credentials", error.providerDetail);
  if (status === "FAILED_PRECONDITION") return new ProviderError("google", "ERR4002", error.message, error.providerDetail);
  return error;
}

function picture(encoded: unknown, mimeType: unknown, status: number): ProviderOutput {
  if (typeof encoded !== "string" || !BASE64.test(encoded.replace(/\s+/g, ""))) throw notUnderstood(status, "the picture is not base64");
  const bytes = Buffer.from(encoded.replace(/\s+/g, ""), "base64");
  const contentType = typeof mimeType === "string" && mimeType.startsWith("image/") ? mimeType : null;
  if (!contentType || bytes.length === 0) throw notUnderstood(status, "the picture has no image mimeType");
  return { kind: "bytes", bytes, contentType };
}

const imagenSchema = z
  .object({
    predictions: z
      .array(
        z
          .object({ bytesBase64Encoded: z.string().optional(), mimeType: z.string().optional(), raiFilteredReason: z.string().optional() })
          .loose(),
      )
      .optional(),
  })
  .loose();

/** Imagen's pictures; none at all (every one filtered) is a refusal. */
export function imagenOutputs(response: ProviderResponse): ProviderOutput[] {
  const parsed = imagenSchema.safeParse(response.body);
  if (!parsed.success || response.body === null || typeof response.body !== "object")
    throw notUnderstood(response.status, "not a predict response");
  const predictions = parsed.data.predictions ?? [];
  const images = predictions.filter((prediction) => prediction.bytesBase64Encoded !== undefined);
  if (images.length === 0) {
    const reason = predictions.map((prediction) => prediction.raiFilteredReason).find((text) => typeof text === "string");
    throw refused("the prompt", `HTTP ${response.status} no predictions${reason ? ` (${reason.slice(0, 200)})` : ""}`);
  }
  return images.map((prediction) => picture(prediction.bytesBase64Encoded, prediction.mimeType, response.status));
}

const blobSchema = z.object({ mimeType: z.string().optional(), mime_type: z.string().optional(), data: z.string().optional() }).loose();
// The REST answer is camelCase (proto3 JSON); snake_case, which proto3 JSON parsers also accept, is read too.
const partSchema = z
  .object({ inlineData: blobSchema.optional(), inline_data: blobSchema.optional(), text: z.string().optional() })
  .loose()
  .transform((part) => ({ inlineData: part.inlineData ?? part.inline_data, text: part.text }));
const geminiSchema = z
  .object({
    candidates: z
      .array(
        z
          .object({
            content: z
              .object({ parts: z.array(partSchema).optional() })
              .loose()
              .optional(),
            finishReason: z.string().optional(),
          })
          .loose(),
      )
      .optional(),
    promptFeedback: z.object({ blockReason: z.string().optional() }).loose().optional(),
  })
  .loose();

/** The picture parts of a generateContent answer; a blocked prompt or candidate is a refusal. */
export function geminiOutputs(response: ProviderResponse): ProviderOutput[] {
  const parsed = geminiSchema.safeParse(response.body);
  if (!parsed.success || response.body === null || typeof response.body !== "object")
    throw notUnderstood(response.status, "not a generateContent response");
  const blockReason = parsed.data.promptFeedback?.blockReason;
  if (blockReason) throw refused("the prompt", `blockReason ${blockReason}`);
  const candidate = parsed.data.candidates?.[0];
  if (!candidate) throw notUnderstood(response.status, "no candidates");
  const parts = (candidate.content?.parts ?? []).filter((part) => part.inlineData?.data !== undefined);
  if (parts.length === 0) {
    if (candidate.finishReason && REFUSALS.has(candidate.finishReason))
      throw refused("the picture", `finishReason ${candidate.finishReason}`);
    throw notUnderstood(
      response.status,
      `no inlineData picture${candidate.finishReason ? `, finishReason ${candidate.finishReason}` : ""}`,
    );
  }
  return parts.map((part) => picture(part.inlineData?.data, part.inlineData?.mimeType ?? part.inlineData?.mime_type, response.status));
}

export const operationSchema = z
  .object({
    name: z.string().min(1),
    done: z.boolean().optional(),
    error: rpcStatusSchema.optional(),
    response: z
      .object({
        generateVideoResponse: z
          .object({
            generatedSamples: z.array(z.object({ video: z.object({ uri: z.string().optional() }).loose().optional() }).loose()).optional(),
            raiMediaFilteredCount: z.number().optional(),
            raiMediaFilteredReasons: z.array(z.string()).optional(),
          })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

export type GoogleOperation = z.infer<typeof operationSchema>;

/** google.rpc.Code numbers (a done operation's error) → the HTTP status Google maps each to. */
const rpcHttpStatus: Record<number, number> = { 1: 499, 2: 500, 3: 400, 4: 504, 5: 404, 7: 403, 8: 429, 9: 400, 13: 500, 14: 503, 16: 401 };

/** A Veo operation now: running until done, then its video URL, its error, or its safety filter's refusal. */
export function operationResult(operation: GoogleOperation, videoUrl: (uri: string) => string): ProviderResult {
  if (!operation.done) return { status: "running" };
  if (operation.error) {
    const status = rpcHttpStatus[operation.error.code ?? 2] ?? 500;
    const text = operation.error.message ?? "the operation failed";
    const code = classifyHttpFailure(status, `${operation.error.status ?? ""} ${text}`);
    return failed(
      new ProviderError(
        "google",
        code,
        `google: ${text.slice(0, 300)}`,
        `operation error ${operation.error.code ?? "?"}${operation.error.status ? ` ${operation.error.status}` : ""}`,
      ),
    );
  }
  const video = operation.response?.generateVideoResponse;
  const uri = video?.generatedSamples
    ?.map((sample) => sample.video?.uri)
    .find((value) => typeof value === "string" && /^https?:\/\//.test(value));
  if (uri)
    return { status: "succeeded", outputs: [{ kind: "url", url: videoUrl(uri), contentType: "video/mp4" }], predictTimeSeconds: null };
  if ((video?.raiMediaFilteredCount ?? 0) > 0) {
    const reasons = (video?.raiMediaFilteredReasons ?? []).join("; ").slice(0, 200);
    return failed(refused("the video", `raiMediaFilteredCount ${video?.raiMediaFilteredCount}${reasons ? ` (${reasons})` : ""}`));
  }
  return failed(notUnderstood(200, "a done operation without a video uri"));
}

function failed(error: ProviderError): ProviderResult {
  return { status: "failed", error };
}
