import { DarkroomError, type ErrorInit } from "./darkroom-error.js";
import { errorClassByCode, errorClassByStatus, PermissionDeniedError, ProviderError, type ErrorClass } from "./generated/errors.js";

// Which family an answer belongs to: its code in the error table, else (a code this SDK does not
// know yet) ERR4xxx are the providers', else its status. The families are generated.

export { DarkroomError, type ErrorInit } from "./darkroom-error.js";
export * from "./generated/errors.js";

/** No answer: the connection failed, was dropped, or `timeoutMs` passed. Retryable. */
export class DarkroomConnectionError extends DarkroomError {}

/** @deprecated The same class as `PermissionDeniedError` (the name both SDKs use). */
export const PermissionError = PermissionDeniedError;
/** @deprecated */
export type PermissionError = PermissionDeniedError;
/** @deprecated The same class as `DarkroomConnectionError` (the name both SDKs use). */
export const ConnectionError = DarkroomConnectionError;
/** @deprecated */
export type ConnectionError = DarkroomConnectionError;

/** `webhooks.verify` refused the delivery: `reason` says why. */
export class WebhookVerificationError extends Error {
  readonly reason: "malformed_header" | "timestamp_out_of_tolerance" | "signature_mismatch";
  constructor(reason: WebhookVerificationError["reason"]) {
    super(`Webhook signature refused: ${reason}`);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

function byStatus(status: number): ErrorClass {
  return errorClassByStatus[String(status)] ?? errorClassByStatus[`${Math.floor(status / 100)}XX`] ?? errorClassByStatus.default;
}

/** The subclass for an error code, else for the HTTP status. */
export function errorClassFor(code: string, status: number): ErrorClass {
  return errorClassByCode[code] ?? (/^ERR4\d{3}$/.test(code) ? ProviderError : byStatus(status));
}

export function makeError(init: ErrorInit): DarkroomError {
  const ErrorType = errorClassFor(init.code, init.status);
  return new ErrorType(init);
}
