import "server-only";
import { z } from "zod";
import { describeFailure, providerErrorFromJobFailure, providerErrorFromJobResponse, type ProviderResponse } from "../http-errors";
import { ProviderError, type ProviderOutput, type ProviderResult } from "../types";

// What fal's queue says about a request (status, result, webhook) and what that means for us.
// Image endpoints answer `images[]`, video endpoints `video`, each file `{url, content_type}`.

const fileSchema = z.object({ url: z.string().min(1), content_type: z.string().nullish() });

const outputSchema = z.object({
  images: z.array(fileSchema).optional(),
  image: fileSchema.optional(),
  video: fileSchema.optional(),
  has_nsfw_concepts: z.array(z.boolean()).optional(),
  timings: z.object({ inference: z.number().optional() }).nullish(),
});

export const falStatusSchema = z.object({
  status: z.enum(["IN_QUEUE", "IN_PROGRESS", "COMPLETED"]),
  metrics: z.object({ inference_time: z.number().nullish() }).nullish(),
});

export const falWebhookSchema = z.object({
  request_id: z.string().min(1),
  status: z.enum(["OK", "ERROR"]),
  payload: z.unknown().optional(),
  error: z.string().nullish(),
  payload_error: z.string().nullish(),
});

export const falSubmitSchema = z.object({ request_id: z.string().min(1) });

/** A completed request's payload: the outputs, or a failure when there are none to deliver. */
export function falSuccess(payload: unknown, inferenceSeconds: number | null): ProviderResult {
  const parsed = outputSchema.safeParse(payload);
  if (!parsed.success) return failed(new ProviderError("fal", "ERR4002", "fal: the result has no images or video", "unexpected result"));
  const result = parsed.data;
  // The safety checker blacks out what it flags: a black picture is no deliverable.
  if (result.has_nsfw_concepts?.some(Boolean)) {
    return failed(new ProviderError("fal", "ERR4005", "fal: the output was flagged by the safety checker (NSFW)", "has_nsfw_concepts"));
  }
  const files = [...(result.images ?? []), ...(result.image ? [result.image] : []), ...(result.video ? [result.video] : [])];
  if (files.length === 0) return failed(new ProviderError("fal", "ERR4002", "fal: the result has no images or video", "empty result"));
  const outputs = files.map((file): ProviderOutput => ({ kind: "url", url: file.url, contentType: file.content_type ?? undefined }));
  return { status: "succeeded", outputs, predictTimeSeconds: result.timings?.inference ?? inferenceSeconds };
}

/** A completed request whose result endpoint answered an error status. */
export function falFailure(response: ProviderResponse): ProviderResult {
  if (describeFailure(response.body, response.headers).code === "client_cancelled") return { status: "canceled" };
  return failed(providerErrorFromJobResponse("fal", response));
}

/** A webhook `{status: "ERROR", error: "Invalid status code: 422", payload: {detail}}`. */
export function falWebhookFailure(error: string | null | undefined, payload: unknown): ProviderResult {
  const status = Number(/status code:?\s*(\d{3})/i.exec(error ?? "")?.[1]);
  if (Number.isInteger(status) && status >= 400) {
    return falFailure({ status, ok: false, headers: new Headers(), body: payload ?? error ?? null });
  }
  const text = [error, describeFailure(payload).message].filter(Boolean).join(": ");
  return failed(providerErrorFromJobFailure("fal", text, "status ERROR"));
}

function failed(error: ProviderError): ProviderResult {
  return { status: "failed", error };
}
