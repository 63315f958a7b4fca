import type { Prisma } from "../base/generated/prisma/client";

// The shapes of one delivery attempt, shared by its HTTP side (deliver.ts) and its database side
// (record-attempt.ts): the delivery to send, what one POST got, and what the attempt came to.

export type DeliveryToAttempt = Prisma.WebhookDeliveryGetPayload<{ include: { endpoint: true } }>;

/** What one POST got: recorded as a webhook_attempt row. */
export type SentAttempt = {
  attemptNumber: number;
  statusCode: number | null;
  snippet: string | null;
  error: string | null;
  startedAtMs: number;
  latencyMs: number;
};

export type DeliveryAttemptResult =
  | { outcome: "delivered"; attemptNumber: number; statusCode: number; startedAtMs: number; latencyMs: number }
  | { outcome: "failed"; attemptNumber: number; statusCode: number | null; error: string; startedAtMs: number; latencyMs: number }
  /** Nothing sent: the delivery is gone or already delivered, or its endpoint was disabled meanwhile (then it is dead-lettered). */
  | { outcome: "skipped"; reason: "not_found" | "already_delivered" | "endpoint_disabled" };
