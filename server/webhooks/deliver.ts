import "server-only";
import { db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { safeFetch, type SafeFetchOptions } from "../net/safe-fetch";
import { webhookNetworkOptions, type WebhookNetworkOptions } from "./endpoint-url";
import { signPayload } from "./sign";
import { serializeWebhookBody, type WebhookBody } from "./webhook-body";

// One delivery attempt: the endpoint URL is checked again and the connection
// goes to the checked address (safeFetch), no redirect is followed (a 3xx is a failure), 10 s for
// the whole exchange, 2xx = delivered. Every attempt is a webhook_attempt row: status, latency,
// the first KB of the answer, the error. Retrying is the delivery function's business.

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_SNIPPET_BYTES = 1024;
const MAX_RESPONSE_BYTES = 256 * 1024;
export const WEBHOOK_USER_AGENT = "Darkroom-Webhooks/1";

export type DeliveryAttemptOptions = WebhookNetworkOptions & Pick<SafeFetchOptions, "ca" | "timeoutMs">;

export type DeliveryAttemptResult =
  | { outcome: "delivered"; attemptNumber: number; statusCode: number; startedAtMs: number; latencyMs: number }
  | { outcome: "failed"; attemptNumber: number; statusCode: number | null; error: string; startedAtMs: number; latencyMs: number }
  /** Nothing sent: the delivery is gone or already delivered, or its endpoint was disabled meanwhile (then it is dead-lettered). */
  | { outcome: "skipped"; reason: "not_found" | "already_delivered" | "endpoint_disabled" };

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

export async function attemptDelivery(input: { deliveryId: string; attemptNumber: number }, options: DeliveryAttemptOptions = {}): Promise<DeliveryAttemptResult> {
  const delivery = await db.webhookDelivery.findUnique({ where: { id: input.deliveryId }, include: { endpoint: true } });
  if (!delivery) return { outcome: "skipped", reason: "not_found" };
  if (delivery.status === "delivered") return { outcome: "skipped", reason: "already_delivered" };
  if (!delivery.endpoint.enabled) {
    await deadLetterDelivery(delivery);
    return { outcome: "skipped", reason: "endpoint_disabled" };
  }

  const body = delivery.payload as unknown as WebhookBody;
  const rawBody = serializeWebhookBody(body);
  const startedAtMs = Date.now();
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
        "X-Service-Signature": signPayload(delivery.endpoint.secret, timestamp, rawBody),
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
  const latencyMs = Date.now() - startedAtMs;
  const delivered = error === null && statusCode !== null;
  const startedAt = new Date(startedAtMs);

  await db.$transaction(async (tx) => {
    // createdAt is the attempt's start: the retry schedule counts from it. A re-run step overwrites its row.
    const attempt = { statusCode, latencyMs, responseSnippet: snippet, error, createdAt: startedAt };
    await tx.webhookAttempt.upsert({
      where: { deliveryId_attemptNumber: { deliveryId: delivery.id, attemptNumber: input.attemptNumber } },
      create: { deliveryId: delivery.id, attemptNumber: input.attemptNumber, ...attempt },
      update: attempt,
    });
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: {
        attemptCount: Math.max(delivery.attemptCount, input.attemptNumber),
        lastAttemptAt: startedAt,
        ...(delivered ? { status: "delivered", deliveredAt: new Date() } : {}),
      },
    });
  });

  if (delivered) return { outcome: "delivered", attemptNumber: input.attemptNumber, statusCode: statusCode as number, startedAtMs, latencyMs };
  return { outcome: "failed", attemptNumber: input.attemptNumber, statusCode, error: error ?? "no response", startedAtMs, latencyMs };
}

/** The endpoint was disabled after the event was queued: keep it as a dead letter, replayable later. */
async function deadLetterDelivery(delivery: { id: string; endpointId: string; accountId: string; event: string; eventKey: string; payload: Prisma.JsonValue }) {
  const body = delivery.payload as unknown as WebhookBody;
  await db.$transaction(async (tx) => {
    await tx.deadLetter.createMany({
      data: [
        {
          endpointId: delivery.endpointId,
          accountId: delivery.accountId,
          event: delivery.event,
          eventKey: delivery.eventKey,
          payload: { webhook_event: body.webhook_event, webhook_timestamp: body.webhook_timestamp, webhook_data: body.webhook_data } as unknown as Prisma.InputJsonObject,
          reason: "endpoint_disabled",
        },
      ],
      skipDuplicates: true,
    });
    await tx.webhookDelivery.updateMany({ where: { id: delivery.id, status: "pending" }, data: { status: "failed" } });
  });
}
