import "server-only";
import type { Db } from "../base/db";
import { requestDeliveries } from "./queue-deliveries";

// A delivery whose run request never left (the process died between the commit and the send, or
// the event API was down) stays `pending` with no recent attempt. It is requested again under an
// id derived from where it stands, so a request that did leave, or a second sweep, runs nothing twice.

/** Pending with no attempt for this long: its run is lost (a live run retries within seconds). */
const STALLED_AFTER_MS = 5 * 60_000;
/**
 * Never attempted for this long: its first request may never have left (a SIGKILL right after the
 * commit; found by the R3 chaos drill, where it held a webhook back for five minutes). Asking again
 * sooner is safe: the first run's request keeps its event id, which the executor accepts once.
 */
const NEVER_SENT_AFTER_MS = 30_000;

export async function rerequestStalledDeliveries(db: Db, { now }: { now: Date }): Promise<{ rerequested: string[] }> {
  const before = new Date(now.getTime() - STALLED_AFTER_MS);
  const neverSentBefore = new Date(now.getTime() - NEVER_SENT_AFTER_MS);
  const stalled = await db.webhookDelivery.findMany({
    where: {
      status: "pending",
      OR: [
        { lastAttemptAt: null, attemptCount: 0, createdAt: { lt: neverSentBefore } },
        { lastAttemptAt: null, createdAt: { lt: before } },
        { lastAttemptAt: { lt: before } },
      ],
    },
    select: { id: true, attemptCount: true },
    take: 500,
  });
  await requestDeliveries(
    stalled.map((delivery) => ({
      deliveryId: delivery.id,
      fromAttempt: delivery.attemptCount + 1,
      // A first run keeps its original id; a stalled re-send resumes under one id per resume point.
      eventId:
        delivery.attemptCount === 0
          ? `webhook-delivery:${delivery.id}`
          : `webhook-delivery:${delivery.id}:resume:${delivery.attemptCount + 1}`,
    })),
  );
  return { rerequested: stalled.map((delivery) => delivery.id) };
}
