import { recordActivity } from "../../activity/record-activity";
import type { Tx } from "../../base/db";
import type { EventOutcome } from "../events/event-outcome";
import { notifyPrimaryOwner } from "../notify-primary-owner";

// A payment that landed while the subscription was not active: no credits; the order waits in
// `manual_review` for an operator (order:approve adds them once, order:reject refunds), and the
// primary owner is told. Packs and auto top-ups alike.

export type Held = {
  order: { id: string; accountId: string };
  /** "25-credit pack (order 1a2b3c4d)". */
  label: string;
  /** What the subscription was: "canceled", "absent". */
  subscription: string;
  /** The Stripe object it was paid with, for the activity record. */
  paidWith: Record<string, string>;
  title: string;
  lines: string[];
};

export async function holdForReview(tx: Tx, held: Held): Promise<EventOutcome> {
  const { order, label } = held;
  const reason = `Paid while the subscription was ${held.subscription}; credits wait for an operator's review.`;
  await tx.order.update({ where: { id: order.id }, data: { status: "manual_review", reviewReason: reason } });
  await recordActivity(tx, {
    accountId: order.accountId,
    actor: "system",
    category: "order",
    action: "order.manual_review",
    description: `${label}: ${reason}`,
    metadata: { order_id: order.id, ...held.paidWith },
  });
  const notice = await notifyPrimaryOwner(tx, {
    accountId: order.accountId,
    kind: "order.manual_review",
    title: held.title,
    lines: held.lines,
  });
  return { action: "order needs manual review", emailIds: notice.emailId ? [notice.emailId] : [] };
}
