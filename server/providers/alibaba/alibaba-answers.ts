import "server-only";
import { z } from "zod";
import { classifyHttpFailure, providerErrorFromResponse, type ProviderResponse } from "../http-errors";
import { ProviderError, type ProviderErrorCode } from "../types";

// What DashScope's answers mean for us (https://www.alibabacloud.com/help/en/model-studio/error-code).
// A failure is an HTTP status with `{request_id, code, message}`; a failed task carries the same
// `code` / `message` in its `output`. The code decides: `Arrearage` is a 400 that is our account,
// not the request, and `DataInspectionFailed` is a 400 that is content moderation.

const codePrefixes: [string, ProviderErrorCode][] = [
  ["DataInspectionFailed", "ERR4005"], // input or output flagged by content moderation
  ["IPInfringementSuspect", "ERR4005"], // suspected intellectual-property infringement
  ["InvalidParameter", "ERR4005"], // the request itself is wrong: another try fails the same
  ["InvalidURL", "ERR4005"],
  ["InvalidFile", "ERR4005"],
  ["RequestTimeOut", "ERR4001"],
  ["Throttling", "ERR4002"], // Throttling, Throttling.RateQuota, Throttling.AllocationQuota
  ["Arrearage", "ERR4002"], // the account is overdue
  ["InvalidApiKey", "ERR4002"],
  ["AccessDenied", "ERR4002"],
  ["InternalError", "ERR4002"],
  ["ServiceUnavailable", "ERR4002"],
];

const errorSchema = z.object({ code: z.string().min(1), message: z.string().nullish() });

/** A DashScope error code as our error; a code it does not list is read by its HTTP status and text. */
export function dashscopeError(code: string, message: string | null | undefined, httpStatus: number): ProviderError {
  const known = codePrefixes.find(([prefix]) => code === prefix || code.startsWith(`${prefix}.`))?.[1];
  const ours = known ?? classifyHttpFailure(httpStatus, `${code} ${message ?? ""}`);
  // Credential codes stay out of the record: their text can echo part of the key.
  const text =
    code === "InvalidApiKey" || code.startsWith("AccessDenied")
      ? "the provider refused our credentials"
      : (message ?? "").slice(0, 300) || code;
  return new ProviderError("alibaba", ours, `alibaba: ${text}`, `HTTP ${httpStatus} ${code}`);
}

/** The body of a successful exchange, or the ProviderError its status and `code` name. */
export function readDashscopeAnswer(response: ProviderResponse): unknown {
  if (response.ok) return response.body;
  const parsed = errorSchema.safeParse(response.body);
  if (!parsed.success) throw providerErrorFromResponse("alibaba", response);
  const error = dashscopeError(parsed.data.code, parsed.data.message, response.status);
  // A status that always means timeout or unavailable (408, 429, 5xx, 401/403) decides over the code.
  const statusDecides = [401, 403, 408, 429].includes(response.status) || response.status >= 500;
  if (!statusDecides || error.code === "ERR4001") throw error;
  throw new ProviderError("alibaba", classifyHttpFailure(response.status, ""), error.message, error.providerDetail);
}

/** An answer DashScope's reference does not describe: asking again would not help, so it ends the attempt. */
export class DashscopeAnswerNotUnderstood extends ProviderError {
  constructor(httpStatus: number, what: string) {
    super("alibaba", "ERR4002", `alibaba: the answer is not understood (${what})`, `HTTP ${httpStatus} unexpected body`);
  }
}

/** The create answer: `{request_id, output: {task_id, task_status}}`. */
export const taskCreatedSchema = z.object({
  request_id: z.string().optional(),
  output: z.object({ task_id: z.string().min(1), task_status: z.string().optional() }),
});

const imageResultSchema = z.union([
  z.object({ url: z.string().url() }).passthrough(),
  z.object({ code: z.string(), message: z.string().nullish() }).passthrough(),
]);

/** GET /api/v1/tasks/{task_id}. */
export const taskSchema = z.object({
  request_id: z.string().optional(),
  output: z.object({
    task_id: z.string().optional(),
    task_status: z.enum(["PENDING", "RUNNING", "SUSPENDED", "SUCCEEDED", "FAILED", "CANCELED", "UNKNOWN"]),
    video_url: z.string().url().optional(),
    results: z.array(imageResultSchema).optional(),
    code: z.string().optional(),
    message: z.string().optional(),
  }),
  usage: z.record(z.string(), z.unknown()).optional(),
});

export type DashscopeTask = z.infer<typeof taskSchema>["output"];

/** Qwen-Image-Edit's answer: `{output: {choices: [{finish_reason, message: {role, content: [{image}]}}]}, usage, request_id}`. */
export const imageEditAnswerSchema = z.object({
  request_id: z.string().optional(),
  output: z.object({
    choices: z
      .array(
        z
          .object({
            finish_reason: z.string().optional(),
            message: z.object({ content: z.array(z.object({ image: z.string().url().optional() }).passthrough()) }).passthrough(),
          })
          .passthrough(),
      )
      .min(1),
  }),
});
