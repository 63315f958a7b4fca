import { randomUUID } from "node:crypto";
import type { Tx } from "../base/db";
import { env } from "../base/env";
import { inngest } from "../base/events/client";
import { autoTopUpRequested } from "../base/events/definitions";
import { Prisma } from "../base/generated/prisma/client";
import { millisToDecimalString, type Millicredits } from "../base/money";
import { afterCommit, connectionOf } from "../base/transaction";

// When a movement leaves the balance below the threshold, its own statement inserts the top-up
// order (under the account's row lock the movement holds, so a burst of creates is evaluated one at
// a time), and the partial unique index order_one_auto_top_up_in_flight keeps it to one in flight:
// a second insert finds the first and does nothing. Not while paused, without a card, or within the
// cooldown after the last attempt. The durable function (auto-top-up, server/billing/auto-top-up)
// charges it after commit.

export type TriggerInput = { accountId: string; balanceBeforeMillis: Millicredits; balanceAfterMillis: Millicredits };

/** A WITH item `top_up` (RETURNING id as text) for a movement's statement. */
export function topUpTrigger(input: TriggerInput, now: Date, options: { onlyIfEntry?: boolean } = {}): Prisma.Sql {
  const { accountId, balanceBeforeMillis: before, balanceAfterMillis: after } = input;
  const written = options.onlyIfEntry ? Prisma.sql`AND EXISTS (SELECT 1 FROM entry)` : Prisma.empty;
  const cooldownStart = new Date(now.getTime() - env().AUTO_TOP_UP_COOLDOWN_SECONDS * 1000);
  return Prisma.sql`
    top_up AS (
      INSERT INTO "order" (id, account_id, kind, credits, amount_cents, currency, status, created_at, updated_at)
      SELECT ${randomUUID()}::uuid, s.account_id, 'auto_top_up'::"OrderKind", s.pack_credits, s.pack_amount_cents, s.currency,
             'pending'::"OrderStatus", ${now}, ${now}
        FROM auto_top_up s
       WHERE s.account_id = ${accountId}::uuid AND s.enabled AND s.paused_at IS NULL AND s.payment_method_id IS NOT NULL
         AND s.threshold > ${millisToDecimalString(after)}::numeric AND ${after < before}
         AND (s.last_attempt_at IS NULL OR s.last_attempt_at <= ${cooldownStart}) ${written}
      ON CONFLICT DO NOTHING
      RETURNING id::text AS id)`;
}

/**
 * For the create in one statement (server/generations/record-at-once.ts): true when its reservation
 * could start a top-up, which is the transaction's to write (the statement then records nothing).
 */
export function couldStartTopUp(locked: string, cost: Prisma.Sql): Prisma.Sql {
  const row = Prisma.raw(locked);
  return Prisma.sql`EXISTS (SELECT 1 FROM auto_top_up s WHERE s.account_id = ${row}.id AND s.enabled AND s.paused_at IS NULL
    AND s.payment_method_id IS NOT NULL AND s.threshold > ${row}.credit_balance - ${cost})`;
}

// The `billing/auto-top-up.requested` event leaves once the movement that inserted the order has
// committed. A transaction without an outbox (none of today's callers) or a lost send leaves the
// order pending, and the billing sweep sends it again (sweep-top-ups.ts).

export async function sendTopUpRequested(orderId: string): Promise<void> {
  await inngest.send(autoTopUpRequested.create({ orderId }, { id: `auto-top-up:${orderId}` }));
}

export function requestTopUpAfterCommit(tx: Tx, orderId: string | null): void {
  if (!orderId || !connectionOf(tx)) return;
  afterCommit(tx, "billing/auto-top-up.requested", () => sendTopUpRequested(orderId));
}
