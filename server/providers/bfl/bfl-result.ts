import "server-only";
import { z } from "zod";
import { providerErrorFromJobFailure } from "../http-errors";
import { ProviderError, type ProviderResult } from "../types";

// What BFL says about a task (GET /v1/get_result's ResultResponse, and the webhook body) and
// what that means for us. `result.sample` is a signed URL of the image, valid for 10 minutes.

export const bflSubmitSchema = z.object({ id: z.string().min(1), polling_url: z.string().min(1).optional() });

export const bflResultSchema = z.object({
  id: z.string().min(1),
  status: z.enum(["Task not found", "Pending", "Request Moderated", "Content Moderated", "Ready", "Error"]),
  result: z.unknown().optional(),
  details: z.record(z.string(), z.unknown()).nullish(),
  error: z.unknown().optional(),
  message: z.unknown().optional(),
});

export type BflTask = z.infer<typeof bflResultSchema>;

const sampleSchema = z.object({ sample: z.string().min(1), duration: z.number().nullish() }).loose();

/** `outputFormat`: the job's, for the sample's content type; null (a webhook) leaves it to the download. */
export function bflTaskResult(task: BflTask, outputFormat: string | null): ProviderResult {
  switch (task.status) {
    case "Pending":
      return { status: "running" };
    case "Request Moderated":
    case "Content Moderated":
      return failed(
        new ProviderError(
          "bfl",
          "ERR4005",
          `bfl: ${task.status === "Request Moderated" ? "the request" : "the output"} was refused by moderation`,
          `status ${task.status}${reasons(task)}`,
        ),
      );
    case "Task not found":
      return failed(new ProviderError("bfl", "ERR4002", "bfl: the task is not known (expired or never created)", "status Task not found"));
    case "Error":
      return failed(providerErrorFromJobFailure("bfl", errorText(task), "status Error"));
    case "Ready": {
      const sample = sampleSchema.safeParse(task.result);
      if (!sample.success || !/^https?:\/\//.test(sample.data.sample)) {
        return failed(new ProviderError("bfl", "ERR4002", "bfl: the task is Ready without a result.sample URL", "status Ready, no sample"));
      }
      return {
        status: "succeeded",
        outputs: [
          {
            kind: "url",
            url: sample.data.sample,
            contentType: outputFormat === null ? undefined : outputFormat === "png" ? "image/png" : "image/jpeg",
          },
        ],
        predictTimeSeconds: sample.data.duration ?? null,
      };
    }
  }
}

function reasons(task: BflTask): string {
  const list = task.details?.["Moderation Reasons"];
  return Array.isArray(list) && list.length > 0 ? ` (${list.map(String).join(", ")})` : "";
}

function errorText(task: BflTask): string {
  const details = task.details ? (task.details.error ?? task.details.message ?? JSON.stringify(task.details)) : null;
  const parts = [task.error, task.message, details, typeof task.result === "string" ? task.result : null];
  return parts.filter((part): part is string => typeof part === "string" && part.trim() !== "").join(": ");
}

function failed(error: ProviderError): ProviderResult {
  return { status: "failed", error };
}
