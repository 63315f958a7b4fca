import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { providerErrorFromJobFailure, providerErrorFromResponse, sendProviderRequest, type ProviderResponse } from "../http-errors";
import { ProviderError, type ProviderJob, type ProviderResult, type SubmitResult } from "../types";

// OpenAI's Videos API (https://platform.openai.com/docs/api-reference/videos) for Sora 2: POST
// /v1/videos (multipart form, as the SDKs send it) answers a video job, GET /v1/videos/{id} reads
// it (queued, in_progress, completed, failed), GET /v1/videos/{id}/content is the MP4, behind our
// API key (not a public URL), so it is downloaded here under the byte cap and handed over as bytes.
// DELETE /v1/videos/{id} removes the job.

export type OpenAIVideoCalls = {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  /** The MP4 is refused (ERR4003) past this many bytes. */
  maxVideoBytes: number;
};

/** Our ratio and resolution as the size OpenAI publishes for it. */
const sizes: Record<string, string> = {
  "16:9@720p": "1280x720",
  "9:16@720p": "720x1280",
  "16:9@1024p": "1792x1024",
  "9:16@1024p": "1024x1792",
};

const videoSchema = z.object({
  id: z.string().min(1),
  object: z.literal("video"),
  status: z.enum(["queued", "in_progress", "completed", "failed"]),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

export async function submitVideo(calls: OpenAIVideoCalls, job: ProviderJob): Promise<SubmitResult> {
  const size = sizes[`${job.ratio}@${job.resolution ?? "720p"}`];
  if (!size)
    throw new ProviderError("openai", "ERR4002", `openai: no Sora size for ratio ${job.ratio} at ${job.resolution}`, "unmapped size");
  const fields = { model: job.providerModelId, prompt: job.prompt ?? "", seconds: String(job.durationSeconds ?? 4), size };
  const form = multipartForm(fields);
  const response = await sendProviderRequest(
    "openai",
    `${calls.baseUrl}/v1/videos`,
    { method: "POST", headers: { Authorization: `Bearer ${calls.token}`, "Content-Type": form.contentType }, body: form.body },
    calls.timeoutMs,
  );
  if (!response.ok) throw providerErrorFromResponse("openai", response);
  const video = videoSchema.safeParse(response.body);
  if (!video.success) throw notUnderstood(response, "the create answer is not a video job");
  return { kind: "accepted", predictionId: video.data.id };
}

export async function pollVideo(calls: OpenAIVideoCalls, videoId: string): Promise<ProviderResult> {
  const response = await call(calls, "GET", videoPath(videoId));
  if (!response.ok) return failedOrRetry(response);
  const video = videoSchema.safeParse(response.body);
  // OpenAI answered, in words we do not know: asking again would not help, so the attempt ends.
  if (!video.success) return { status: "failed", error: notUnderstood(response, "the answer is not a video job") };
  switch (video.data.status) {
    case "queued":
    case "in_progress":
      return { status: "running" };
    case "failed": {
      const { code, message } = video.data.error ?? {};
      return {
        status: "failed",
        error: providerErrorFromJobFailure("openai", [code, message].filter(Boolean).join(": "), `failed ${code ?? ""}`.trim()),
      };
    }
    case "completed":
      return downloadVideo(calls, videoId);
  }
}

export async function deleteVideo(calls: OpenAIVideoCalls, videoId: string): Promise<boolean> {
  try {
    return (await call(calls, "DELETE", videoPath(videoId))).ok;
  } catch {
    return false;
  }
}

async function downloadVideo(calls: OpenAIVideoCalls, videoId: string): Promise<ProviderResult> {
  let response: ProviderResponse;
  try {
    response = await call(calls, "GET", `${videoPath(videoId)}/content`, calls.maxVideoBytes);
  } catch (error) {
    // A video past the cap stays past it: the attempt fails instead of downloading it again.
    if (error instanceof ProviderError && error.code === "ERR4003") return { status: "failed", error };
    throw error;
  }
  if (!response.ok) return failedOrRetry(response);
  const bytes = response.bytes;
  if (!bytes || bytes.byteLength === 0) return { status: "failed", error: notUnderstood(response, "the video content is empty") };
  return { status: "succeeded", outputs: [{ kind: "bytes", bytes, contentType: "video/mp4" }], predictTimeSeconds: null };
}

/** 429 and 5xx may pass on a later poll (thrown: the poll is retried); other statuses never will. */
function failedOrRetry(response: ProviderResponse): ProviderResult {
  const error = providerErrorFromResponse("openai", response);
  if (response.status === 429 || response.status >= 500 || response.status === 408) throw error;
  return { status: "failed", error };
}

function call(calls: OpenAIVideoCalls, method: string, path: string, maxAnswerBytes?: number): Promise<ProviderResponse> {
  return sendProviderRequest(
    "openai",
    `${calls.baseUrl}${path}`,
    { method, headers: { Authorization: `Bearer ${calls.token}` }, maxAnswerBytes },
    calls.timeoutMs,
  );
}

const videoPath = (id: string) => `/v1/videos/${encodeURIComponent(id)}`;

function multipartForm(fields: Record<string, string>): { contentType: string; body: string } {
  const boundary = `----darkroom${randomBytes(12).toString("hex")}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: `${parts.join("")}--${boundary}--\r\n` };
}

function notUnderstood(response: ProviderResponse, what: string): ProviderError {
  return new ProviderError("openai", "ERR4002", `openai: ${what}`, `HTTP ${response.status} unexpected body`);
}
