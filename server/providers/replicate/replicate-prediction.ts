import "server-only";
import { z } from "zod";
import { providerErrorFromJobFailure } from "../http-errors";
import { ProviderError, type ProviderOutput, type ProviderResult } from "../types";

// Replicate's prediction object (create, get, cancel and webhook bodies all carry it) and what it
// means for us. Output is a URL or a list of URLs, depending on the model.

export const replicatePredictionSchema = z.object({
  id: z.string().min(1),
  status: z.enum(["starting", "processing", "succeeded", "failed", "canceled", "aborted"]),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  metrics: z.object({ predict_time: z.number().optional() }).nullish(),
});

export type ReplicatePrediction = z.infer<typeof replicatePredictionSchema>;

const terminal = new Set<ReplicatePrediction["status"]>(["succeeded", "failed", "canceled", "aborted"]);

export function isTerminal(prediction: ReplicatePrediction): boolean {
  return terminal.has(prediction.status);
}

export function predictionResult(prediction: ReplicatePrediction): ProviderResult {
  switch (prediction.status) {
    case "starting":
    case "processing":
      return { status: "running" };
    case "canceled":
      return { status: "canceled" };
    case "aborted":
      return {
        status: "failed",
        error: new ProviderError("replicate", "ERR4002", "replicate: the prediction was aborted before it ran", "status aborted"),
      };
    case "failed":
      return { status: "failed", error: providerErrorFromJobFailure("replicate", errorText(prediction.error), "status failed") };
    case "succeeded": {
      const outputs = outputUrls(prediction.output).map((url): ProviderOutput => ({ kind: "url", url, contentType: contentTypeOf(url) }));
      if (outputs.length === 0) {
        return {
          status: "failed",
          error: new ProviderError(
            "replicate",
            "ERR4002",
            "replicate: the prediction succeeded without output",
            "status succeeded, no output",
          ),
        };
      }
      return { status: "succeeded", outputs, predictTimeSeconds: prediction.metrics?.predict_time ?? null };
    }
  }
}

function outputUrls(output: unknown): string[] {
  if (typeof output === "string") return isHttpUrl(output) ? [output] : [];
  if (Array.isArray(output)) return output.flatMap(outputUrls);
  return [];
}

function isHttpUrl(value: string): boolean {
  return value.startsWith("https://") || value.startsWith("http://");
}

function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (error === null || error === undefined) return "";
  return JSON.stringify(error);
}

const contentTypes: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
};

function contentTypeOf(url: string): string | undefined {
  const extension = URL.canParse(url) ? (new URL(url).pathname.split(".").pop()?.toLowerCase() ?? "") : "";
  return contentTypes[extension];
}
