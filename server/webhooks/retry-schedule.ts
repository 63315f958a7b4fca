import "server-only";
import { db } from "../base/db";

// An immediate attempt, then retries 0.5 s, 1.5 s, 3 s and 5 s after the
// FIRST attempt of the run (offsets from one origin, not gaps between attempts), to the
// millisecond: the delivery function throws RetryAfterError with these dates (step.sleep would
// round up to whole seconds).

export const WEBHOOK_RETRY_OFFSETS_MS = [500, 1500, 3000, 5000] as const;

/** Attempts per run: the first plus one per offset. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_OFFSETS_MS.length + 1;

/**
 * When the retry after failed try `retryIndex` (0 = the run's first attempt) is due, or null when
 * the retries are spent. The origin is the start of the run's first attempt, as recorded.
 */
export async function nextAttemptAt(input: {
  deliveryId: string;
  fromAttempt: number;
  retryIndex: number;
  startedAtMs: number;
}): Promise<Date | null> {
  const offset = WEBHOOK_RETRY_OFFSETS_MS[input.retryIndex];
  if (offset === undefined) return null;
  let originMs = input.startedAtMs;
  if (input.retryIndex > 0) {
    const first = await db.webhookAttempt.findFirst({
      where: { deliveryId: input.deliveryId, attemptNumber: { gte: input.fromAttempt } },
      orderBy: { attemptNumber: "asc" },
      select: { createdAt: true },
    });
    if (first) originMs = first.createdAt.getTime();
  }
  return new Date(originMs + offset);
}
