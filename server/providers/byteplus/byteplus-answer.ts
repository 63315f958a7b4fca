import "server-only";
import { z } from "zod";
import { providerErrorFromJobFailure } from "../http-errors";
import { ProviderError, type ProviderOutput, type ProviderResult } from "../types";

// What ModelArk answers and what that means for us.
// - Image generation: `{model, created, data: [{b64_json, size} | {url, size} | {error: {code, message}}], usage}`.
// - A content generation task (GET /api/v3/contents/generations/tasks/{id}): `{id, model, status,
//   error: {code, message} | null, content: {video_url, last_frame_url?}, usage, created_at,
//   updated_at, ...}`, status one of queued, running, cancelled, succeeded, failed, expired.
// Errors of both are `{error: {code, message, param, type}}`, read by the shared mapping.

const itemErrorSchema = z.object({ code: z.string().optional(), message: z.string().optional() }).loose();

export const byteplusImagesSchema = z.object({
  data: z
    .array(
      z.object({ b64_json: z.string().min(1).optional(), url: z.string().min(1).optional(), error: itemErrorSchema.optional() }).loose(),
    )
    .min(1),
});

export const byteplusCreatedSchema = z.object({ id: z.string().min(1) });

export const byteplusTaskSchema = z.object({
  id: z.string().min(1),
  status: z.enum(["queued", "running", "cancelled", "succeeded", "failed", "expired"]),
  error: itemErrorSchema.nullish(),
  content: z
    .object({ video_url: z.string().min(1).optional() })
    .loose()
    .nullish(),
  created_at: z.number().optional(),
  updated_at: z.number().optional(),
});

export type ByteplusTask = z.infer<typeof byteplusTaskSchema>;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function notUnderstood(status: number, what: string): ProviderError {
  return new ProviderError("byteplus", "ERR4002", `byteplus: the answer was not understood (${what})`, `HTTP ${status} unexpected body`);
}

/** The pictures of a 2xx image answer; a failed item (moderated output) fails the whole attempt. */
export function byteplusImages(status: number, body: unknown): ProviderOutput[] {
  const parsed = byteplusImagesSchema.safeParse(body);
  if (!parsed.success) throw notUnderstood(status, "no data[] of images");
  return parsed.data.data.map((item) => {
    if (item.error)
      throw providerErrorFromJobFailure(
        "byteplus",
        [item.error.code, item.error.message].filter(Boolean).join(": "),
        `image error ${item.error.code ?? ""}`.trim(),
      );
    if (item.b64_json) {
      const encoded = item.b64_json.replace(/\s+/g, "");
      if (!BASE64.test(encoded)) throw notUnderstood(status, "b64_json is not base64");
      const bytes = Buffer.from(encoded, "base64");
      const contentType = imageType(bytes);
      if (!contentType) throw notUnderstood(status, "b64_json is not a JPEG or PNG picture");
      return { kind: "bytes", bytes, contentType };
    }
    if (item.url && /^https?:\/\//.test(item.url)) return { kind: "url", url: item.url, contentType: "image/jpeg" };
    throw notUnderstood(status, "an image item has neither b64_json nor url");
  });
}

function imageType(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "image/png";
  return null;
}

export function byteplusTaskResult(task: ByteplusTask): ProviderResult {
  switch (task.status) {
    case "queued":
    case "running":
      return { status: "running" };
    case "cancelled":
      return { status: "canceled" };
    case "expired":
      return failed(new ProviderError("byteplus", "ERR4001", "byteplus: the task expired before it ran", "status expired"));
    case "failed": {
      const text = [task.error?.code, task.error?.message].filter(Boolean).join(": ");
      return failed(providerErrorFromJobFailure("byteplus", text, `status failed ${task.error?.code ?? ""}`.trim()));
    }
    case "succeeded": {
      const url = task.content?.video_url;
      if (!url || !/^https?:\/\//.test(url)) return failed(notUnderstood(200, "a succeeded task without content.video_url"));
      const seconds =
        task.created_at !== undefined && task.updated_at !== undefined ? Math.max(0, task.updated_at - task.created_at) : null;
      return { status: "succeeded", outputs: [{ kind: "url", url, contentType: "video/mp4" }], predictTimeSeconds: seconds };
    }
  }
}

function failed(error: ProviderError): ProviderResult {
  return { status: "failed", error };
}
