import "server-only";
import { db } from "../base/db";
import { sendGenerationFinished } from "./send-generation-finished";

// A terminal transition commits first and sends its generation/finished event after (a cancel
// on its transaction's outbox, the run after its step's transaction). A process that dies between
// the two loses the event, and with it the terminal webhook. The sweeper sends it again for a
// generation that ended a while ago and still has no delivery (or dead letter) of its terminal
// event at an endpoint that was subscribed when it ended. The event id is the generation's, so an
// event that did leave is not fanned out twice, and the fan-out's event key makes one delivery per endpoint.

/** How long after the transition the event's deliveries should exist: the fan-out runs within seconds. */
const LOST_AFTER_SECONDS = 30;
/** Older transitions are not looked at again (the sweep runs every minute). */
const LOOK_BACK_SECONDS = 3600;
/**
 * A generation lives at most its model's timeout on each provider of its chain (under an hour):
 * bounding created_at too lets the (status, created_at) index find the candidates.
 */
const LONGEST_RUN_SECONDS = 2 * 3600;

export async function resendLostFinishedEvents(now = new Date()) {
  const lost = await db.$queryRaw<Array<{ id: string; account_id: string; status: "succeeded" | "failed" | "canceled" }>>`
    WITH finished AS (
      SELECT g.id, g.account_id, g.status::text AS status, g.completed_at,
             CASE g.status WHEN 'succeeded' THEN 'generation.completed' WHEN 'failed' THEN 'generation.failed' ELSE 'generation.canceled' END AS event
        FROM generation g
       WHERE g.status IN ('succeeded', 'failed', 'canceled')
         AND g.completed_at < ${new Date(now.getTime() - LOST_AFTER_SECONDS * 1000)}
         AND g.completed_at > ${new Date(now.getTime() - LOOK_BACK_SECONDS * 1000)}
         AND g.created_at > ${new Date(now.getTime() - (LOOK_BACK_SECONDS + LONGEST_RUN_SECONDS) * 1000)}
    )
    SELECT f.id, f.account_id, f.status FROM finished f
     WHERE EXISTS (SELECT 1 FROM webhook_endpoint e WHERE e.account_id = f.account_id AND f.event = ANY(e.events) AND e.updated_at <= f.completed_at)
       AND NOT EXISTS (SELECT 1 FROM webhook_delivery d WHERE d.account_id = f.account_id AND d.event_key = f.event || ':' || f.id)
       AND NOT EXISTS (SELECT 1 FROM dead_letter l WHERE l.account_id = f.account_id AND l.event_key = f.event || ':' || f.id)
     LIMIT 500`;
  for (const row of lost) await sendGenerationFinished(row.id, row.account_id, row.status);
  return { finishedResent: lost.map((row) => row.id) };
}
