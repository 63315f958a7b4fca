// @darkroom/client: the Darkroom API's own client.

export { Darkroom } from "./generated/client.js";
export { VERSION, TERMINAL_STATUSES, WaitTimeoutError, isTerminal } from "./core.js";
export type {
  DarkroomOptions,
  Region,
  CreateOptions,
  WaitOptions,
  PageOptions,
  GenerationList,
  GenerationEvent,
  GenerationAttempt,
  StreamEventOf,
  Page,
  ResultOf,
} from "./core.js";
export type * from "./generated/resources.js";
export type { ListAllOptions } from "./generations.js";
export * from "./errors.js";
export { parseEventStream } from "./sse.js";
export type { StreamEvent, StreamOptions, RawEvent } from "./sse.js";
export type { ResponseMeta, WithResponse, RequestOptions, FetchLike } from "./transport.js";
export { verifyWebhook, SIGNATURE_HEADER, DEFAULT_TOLERANCE_SECONDS } from "./webhooks.js";
export type { WebhookEvent, WebhookHeaders, VerifyOptions } from "./webhooks.js";
export type { FileDownload } from "./downloads.js";
export { downloadOperations, operations, streamOperations } from "./generated/operations.js";
export type {
  OperationId,
  OperationData,
  OperationSpec,
  StreamOperationId,
  StreamOperationSpec,
  StreamEventData,
  DownloadOperationId,
  DownloadOperationSpec,
} from "./generated/operations.js";
export type * from "./generated/types.js";
