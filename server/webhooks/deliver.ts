import "server-only";
import { clock } from "../base/clock";
import { safeFetch, type SafeFetchOptions } from "../base/net/safe-fetch";
import { webhookNetworkOptions, type WebhookNetworkOptions } from "./endpoint-url";
import { openEndpointSecret } from "./endpoint-secret";
import { signPayload } from "./sign";
import type { DeliveryToAttempt, SentAttempt } from "./delivery-attempt";
import { serializeWebhookBody, type WebhookBody } from "./webhook-body";

// One delivery attempt: the endpoint URL is checked again and the connection
// goes to the checked address (safeFetch), no redirect is followed (a 3xx is a failure), 10 s for
// the whole exchange, 2xx = delivered. Every attempt is a webhook_attempt row: status, latency,
// the first KB of the answer, the error (record-attempt.ts, in the step's transaction; the HTTP
// exchange itself is outside any). Retrying is the delivery function's business.

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_SNIPPET_BYTES = 1024;
const MAX_RESPONSE_BYTES = 256 * 1024;
export const WEBHOOK_USER_AGENT = "Darkroom-Webhooks/1";

export type DeliveryAttemptOptions = WebhookNetworkOptions & Pick<SafeFetchOptions, "ca" | "timeoutMs">;

/** At most 1 KB of UTF-8, never ending in a broken character. */
export function responseSnippet(body: Buffer): string | null {
  if (body.byteLength === 0) return null;
  return body
    .subarray(0, RESPONSE_SNIPPET_BYTES)
    .toString("utf8")
    .replace(/\uFFFD+$/, "");
}

function describeFailure(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 1000);
}

/** The signed POST of one attempt, outside any transaction; never throws (a failure is its `error`). */
export async function postDelivery(
  delivery: DeliveryToAttempt,
  attemptNumber: number,
  options: DeliveryAttemptOptions = {},
): Promise<SentAttempt> {
  const body = delivery.payload as unknown as WebhookBody;
  const rawBody = serializeWebhookBody(body);
  const startedAtMs = clock.now();
  const timestamp = Math.floor(startedAtMs / 1000);
  let statusCode: number | null = null;
  let snippet: string | null = null;
  let error: string | null = null;
  try {
    const response = await safeFetch(delivery.endpoint.url, {
      ...webhookNetworkOptions(options),
      ...(options.ca ? { ca: options.ca } : {}),
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": WEBHOOK_USER_AGENT,
        "X-Service-Signature": signPayload(openEndpointSecret(delivery.endpoint), timestamp, rawBody),
        "X-Service-Event": body.webhook_event,
        "X-Service-Timestamp": String(timestamp),
        "X-Service-Delivery-Id": delivery.id,
      },
      body: rawBody,
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
    });
    statusCode = response.status;
    snippet = responseSnippet(response.body);
    if (statusCode >= 300 && statusCode <= 399) {
      const location = typeof response.headers.location === "string" ? ` to ${response.headers.location.slice(0, 500)}` : "";
      error = `Redirect (HTTP ${statusCode}${location}) not followed: endpoints must answer directly`;
    } else if (statusCode < 200 || statusCode > 299) {
      error = `HTTP ${statusCode}`;
    }
  } catch (caught) {
    error = describeFailure(caught);
  }
  return { attemptNumber, statusCode, snippet, error, startedAtMs, latencyMs: clock.now() - startedAtMs };
}
