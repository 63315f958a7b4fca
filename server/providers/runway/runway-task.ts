import "server-only";
import { z } from "zod";
import { providerErrorFromJobFailure } from "../http-errors";
import { ProviderError, type ProviderOutput, type ProviderResult } from "../types";

// Runway's task (GET /v1/tasks/{id}, https://docs.dev.runwayml.com/api/#tag/Task-management) and
// what it means for us. THROTTLED waits for the account's concurrency, so it is running, not a
// failure. A FAILED task's `failureCode` (https://docs.dev.runwayml.com/errors/task-failures/) is
// dot-separated: SAFETY.* (also INPUT_PREPROCESSING.SAFETY.*) is content moderation and
// ASSET.INVALID an unusable input, both final; INTERNAL.* and the rest may pass elsewhere.

export const runwayCreatedSchema = z.object({ id: z.string().min(1) });

export const runwayTaskSchema = z.object({
  id: z.string().min(1),
  status: z.enum(["PENDING", "THROTTLED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]),
  output: z.array(z.unknown()).nullish(),
  failure: z.string().nullish(),
  failureCode: z.string().nullish(),
});

export type RunwayTask = z.infer<typeof runwayTaskSchema>;

const MAX_MESSAGE_LENGTH = 300;

export function taskResult(task: RunwayTask): ProviderResult {
  switch (task.status) {
    case "PENDING":
    case "THROTTLED":
    case "RUNNING":
      return { status: "running" };
    case "CANCELLED":
      return { status: "canceled" };
    case "FAILED":
      return { status: "failed", error: taskFailure(task) };
    case "SUCCEEDED": {
      const outputs = (task.output ?? []).filter(isHttpUrl).map((url): ProviderOutput => ({ kind: "url", url }));
      if (outputs.length === 0)
        return {
          status: "failed",
          error: new ProviderError("runway", "ERR4002", "runway: the task succeeded without output", "SUCCEEDED, no output"),
        };
      return { status: "succeeded", outputs, predictTimeSeconds: null };
    }
  }
}

export function taskFailure(task: Pick<RunwayTask, "failure" | "failureCode">): ProviderError {
  const code = task.failureCode ?? null;
  const text = task.failure ?? "";
  const detail = code ? `FAILED ${code}` : "FAILED";
  if (code === null) return providerErrorFromJobFailure("runway", text, detail);
  const segments = code.split(".");
  const final = segments.includes("SAFETY") || code.startsWith("ASSET.INVALID");
  const message = `runway: ${text || code}`;
  return new ProviderError(
    "runway",
    final ? "ERR4005" : "ERR4002",
    message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message,
    detail,
  );
}

function isHttpUrl(value: unknown): value is string {
  return typeof value === "string" && (value.startsWith("https://") || value.startsWith("http://"));
}
