import "server-only";
import { createHash } from "node:crypto";
import { fetchOutputFile } from "../../base/net/fetch-output-file";
import { readOwnFileLink } from "../../storage/own-file-link";
import { sendProviderRequest, type ProviderResponse } from "../http-errors";
import {
  ProviderError,
  type ProviderAdapter,
  type ProviderJob,
  type ProviderOutput,
  type ProviderResult,
  type SubmitResult,
} from "../types";
import {
  buildGeminiImageInput,
  buildImagenInput,
  buildVeoInput,
  googleFamily,
  veoUnsupported,
  type InlineImage,
} from "./build-google-input";
import { checkGoogle } from "./check-google";
import { geminiOutputs, googleFailure, imagenOutputs, notUnderstood, operationResult, operationSchema } from "./google-answer";

// Google's Gemini API (https://ai.google.dev/api, key in `x-goog-api-key`): Imagen on
// POST /v1beta/models/{model}:predict and Gemini image models on :generateContent answer the
// pictures as base64 in the same call; Veo on :predictLongRunning answers an operation, read at
// GET /v1beta/{operation name} until `done`. No callbacks. A cancel aborts an image call in
// flight; the Gemini API has no cancel for a Veo operation, which runs to its end and is discarded.

export type GoogleAdapterOptions = {
  apiKey: string;
  /** https://generativelanguage.googleapis.com, or a local fake. */
  baseUrl: string;
  /** Input images are downloaded (to send as inlineData) under the output-file rules; tests on loopback set this. */
  allowLoopback?: boolean;
  /** Per call; default: the model's own timeout for image calls (they are the whole generation), 30 s for Veo calls. */
  timeoutMs?: number;
  /** A picture answer past this fails the attempt with ERR4003 (default GOOGLE_ANSWER_MAX_BYTES). */
  maxAnswerBytes?: number;
};

/** Four 2K PNGs, base64-encoded, stay well under this. */
export const GOOGLE_ANSWER_MAX_BYTES = 64 * 1024 * 1024;
/** The Gemini API takes at most 20 MB of inline data per request. */
const INPUT_IMAGE_MAX_BYTES = 20 * 1024 * 1024;
const VEO_CALL_TIMEOUT_MS = 30_000;

/** Named before an image call answers, so a cancel can reach it; the same for a retried step. */
export function googlePredictionId(job: Pick<ProviderJob, "generationId" | "attempt">): string {
  return `google-${createHash("sha256").update(`${job.generationId}\u0000${job.attempt}`).digest("hex").slice(0, 32)}`;
}

export function createGoogleAdapter(options: GoogleAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const maxAnswerBytes = options.maxAnswerBytes ?? GOOGLE_ANSWER_MAX_BYTES;
  const inFlight = new Map<string, AbortController>();

  function call(method: string, path: string, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<ProviderResponse> {
    const headers: Record<string, string> = { "x-goog-api-key": options.apiKey, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return sendProviderRequest(
      "google",
      `${baseUrl}/v1beta/${path}`,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, maxAnswerBytes },
      timeoutMs,
    );
  }

  /** Veo's video.uri is a files/…:download link that wants our key; it is added only on Google's own API origin. */
  function videoUrl(uri: string): string {
    const target = new URL(uri);
    if (target.origin !== new URL(baseUrl).origin && target.hostname !== "generativelanguage.googleapis.com") return uri;
    target.searchParams.set("key", options.apiKey);
    return target.href;
  }

  async function inputImage(url: string): Promise<InlineImage> {
    try {
      // Our own signed /files/ links (playground uploads) from storage; any other URL over the network.
      const file =
        (await readOwnFileLink(url, INPUT_IMAGE_MAX_BYTES)) ??
        (await fetchOutputFile(url, { allowLoopback: options.allowLoopback ?? false, maxBytes: INPUT_IMAGE_MAX_BYTES }));
      return { mimeType: file.contentType?.startsWith("image/") ? file.contentType : "image/png", data: file.bytes.toString("base64") };
    } catch (error) {
      throw new ProviderError(
        "google",
        "ERR4005",
        `google: an input image could not be read (${error instanceof Error ? error.message : String(error)})`,
        "input_file",
      );
    }
  }

  async function inputImages(job: ProviderJob): Promise<InlineImage[]> {
    const images: InlineImage[] = [];
    for (const url of job.inputFiles) images.push(await inputImage(url));
    return images;
  }

  async function pictures(job: ProviderJob, signal: AbortSignal): Promise<ProviderOutput[]> {
    const timeoutMs = options.timeoutMs ?? job.model.timeoutSeconds * 1000;
    const model = `models/${encodeURIComponent(job.providerModelId)}`;
    if (googleFamily(job.providerModelId) === "imagen") {
      const response = await call("POST", `${model}:predict`, buildImagenInput(job), timeoutMs, signal);
      if (!response.ok) throw googleFailure(response);
      return imagenOutputs(response);
    }
    const body = buildGeminiImageInput(job, await inputImages(job));
    const outputs: ProviderOutput[] = [];
    // One picture per call: generateContent has no count for images.
    for (let index = 0; index < job.outputCount; index++) {
      const response = await call("POST", `${model}:generateContent`, body, timeoutMs, signal);
      if (!response.ok) throw googleFailure(response);
      outputs.push(...geminiOutputs(response).slice(0, 1));
    }
    return outputs;
  }

  return {
    id: "google",

    predictionIdFor: googlePredictionId,

    async submit(job: ProviderJob): Promise<SubmitResult> {
      if (googleFamily(job.providerModelId) === "veo") {
        // Options the Gemini API refuses for this Veo: another provider of the model can take them.
        const unsupported = veoUnsupported(job);
        if (unsupported) throw new ProviderError("google", "ERR4002", `google: ${unsupported}`, "unsupported_option");
        const first = job.inputFiles[0];
        const frames = {
          image: first ? await inputImage(first) : undefined,
          lastFrame: job.inputFileLastContent ? await inputImage(job.inputFileLastContent) : undefined,
        };
        const response = await call(
          "POST",
          `models/${encodeURIComponent(job.providerModelId)}:predictLongRunning`,
          buildVeoInput(job, frames),
          options.timeoutMs ?? VEO_CALL_TIMEOUT_MS,
        );
        if (!response.ok) throw googleFailure(response);
        const operation = operationSchema.safeParse(response.body);
        if (!operation.success) throw notUnderstood(response.status, "no operation name");
        return { kind: "accepted", predictionId: operation.data.name };
      }
      const predictionId = googlePredictionId(job);
      const controller = new AbortController();
      inFlight.get(predictionId)?.abort();
      inFlight.set(predictionId, controller);
      try {
        const outputs = await pictures(job, controller.signal);
        return { kind: "completed", predictionId, result: { status: "succeeded", outputs, predictTimeSeconds: null } };
      } catch (error) {
        if (controller.signal.aborted) return { kind: "completed", predictionId, result: { status: "canceled" } };
        throw error;
      } finally {
        if (inFlight.get(predictionId) === controller) inFlight.delete(predictionId);
      }
    },

    async poll(predictionId: string): Promise<ProviderResult> {
      if (!predictionId.includes("/operations/"))
        return failed(
          new ProviderError("google", "ERR4002", "google: image calls are synchronous; there is nothing to poll", "synchronous"),
        );
      // The operation name keeps its slashes: they are path segments of the published route.
      const response = await call(
        "GET",
        predictionId.split("/").map(encodeURIComponent).join("/"),
        undefined,
        options.timeoutMs ?? VEO_CALL_TIMEOUT_MS,
      );
      // Our key, the rate limit or an outage: the operation may still be fine, so the run asks again.
      if (transientStatus(response.status)) throw googleFailure(response);
      if (!response.ok) return failed(googleFailure(response));
      const operation = operationSchema.safeParse(response.body);
      // Asking again would not help an answer we cannot read: the attempt fails.
      return operation.success ? operationResult(operation.data, videoUrl) : failed(notUnderstood(response.status, "not an operation"));
    },

    async cancel(predictionId: string) {
      const controller = inFlight.get(predictionId);
      if (!controller) return false;
      controller.abort();
      return true;
    },

    check: (providerModelIds) =>
      checkGoogle((path) => call("GET", path, undefined, options.timeoutMs ?? VEO_CALL_TIMEOUT_MS), providerModelIds),
  };
}

function transientStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 408 || status === 429 || status >= 500;
}

function failed(error: ProviderError): ProviderResult {
  return { status: "failed", error };
}
