import "server-only";
import { db } from "../../../base/db";
import { getGenerationDetail } from "../../../generations/records/dashboard-detail";

// One run as the playground and Compare show it while it goes and once it ended: the generation's
// detail (record, attempts, ledger) and the figures a comparison ranks by. Another account's
// generation is ERR1006 (the detail's own check).

export async function viewRun(accountId: string, generationId: string) {
  const detail = await getGenerationDetail(db, accountId, generationId);
  const { record, attempts, ledger } = detail;
  const createdAt = Date.parse(record.generation_created_at);
  const firstAttempt = attempts[0] ? Date.parse(attempts[0].started_at) : null;
  const completedAt = record.generation_completed_at ? Date.parse(record.generation_completed_at) : null;
  const charged = ledger.find((entry) => entry.type === "charge");
  const refunded = ledger.find((entry) => entry.type === "refund");
  return {
    ...detail,
    /** From the create to the first provider attempt's start. */
    time_to_first_attempt_ms: firstAttempt === null ? null : Math.max(0, firstAttempt - createdAt),
    /** From the create to the end; null while it runs. */
    total_time_ms: completedAt === null ? null : Math.max(0, completedAt - createdAt),
    /** What the account paid: the charge, or nothing once refunded or before the end. */
    cost_charged: charged ? Math.abs(charged.amount) : null,
    credits_refunded: refunded ? Math.abs(refunded.amount) : null,
    finished: !detail.cancelable,
  };
}

export type RunView = Awaited<ReturnType<typeof viewRun>>;
