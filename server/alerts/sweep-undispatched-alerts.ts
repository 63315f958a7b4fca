import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { log } from "../base/log";
import { dispatchLowBalanceAlert, type DispatchResult } from "./dispatch-low-balance-alert";
import { LOW_BALANCE_KIND } from "./record-low-balance-alert";

// The safety net behind the post-commit event: alerts without an `alert.dispatched` marker. The
// grace leaves the event-driven run its turn (and never races a fresh alert); after the window an
// alert is stale and left alone (its e-mails stay visible in the outbox with their last error).
// Newest first, so alerts that keep failing cannot hold up fresh ones.

export const SWEEP_GRACE_MS = 2 * 60_000;
export const SWEEP_WINDOW_MS = 24 * 3_600_000;

export type SweepOptions = {
  now?: Date;
  graceMs?: number;
  windowMs?: number;
  limit?: number;
};

export async function findUndispatchedAlerts(db: Db, scope: AccountScope, options: SweepOptions = {}): Promise<string[]> {
  const now = options.now ?? new Date();
  const olderThan = new Date(now.getTime() - (options.graceMs ?? SWEEP_GRACE_MS));
  const newerThan = new Date(now.getTime() - (options.windowMs ?? SWEEP_WINDOW_MS));
  const accountId = scopeWhere(scope).accountId ?? null;
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT n.id::text AS id FROM notification n
    WHERE n.kind = ${LOW_BALANCE_KIND} AND n.created_at < ${olderThan} AND n.created_at > ${newerThan}
      AND (${accountId}::uuid IS NULL OR n.account_id = ${accountId}::uuid)
      AND NOT EXISTS (
        SELECT 1 FROM activity_event a
        WHERE a.account_id = n.account_id AND a.action = 'alert.dispatched'
          AND a.created_at >= n.created_at - interval '10 minutes'
          AND a.metadata->>'notification_id' = n.id::text)
    ORDER BY n.created_at DESC
    LIMIT ${options.limit ?? 100}`;
  return rows.map((row) => row.id);
}

export async function sweepUndispatchedAlerts(db: Db, scope: AccountScope, options: SweepOptions = {}) {
  const results: Record<string, DispatchResult["status"] | "error"> = {};
  for (const id of await findUndispatchedAlerts(db, scope, options)) {
    try {
      results[id] = (await dispatchLowBalanceAlert(id)).status;
    } catch (error) {
      // One alert Resend cannot take now must not hold up the others; the next sweep retries it.
      results[id] = "error";
      log.warn("low-balance alert: dispatch failed, retried by the next sweep", {
        notification_id: id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return results;
}
