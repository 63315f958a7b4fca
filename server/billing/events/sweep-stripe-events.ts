import "server-only";
import { db } from "../../base/db";
import { SEND_EMAIL_TRANSACTION, sendEmail } from "../../email/send-email";
import { log } from "../../base/log";
import { inTransaction } from "../../base/transaction";
import { sendStripeEventReceived } from "./send-stripe-event-received";

// Once a minute: stored Stripe events not applied a minute after they arrived (the hand-off was
// lost, or every retry of the run failed) are handed on again, each re-send under its own id; and
// billing e-mails still queued (the run that queued them gave up, or an operator command queued
// them) are sent. Nothing here can apply an event twice: applying locks the event row.

const STALE_AFTER_MS = 60_000;
const MAX_RESENDS = 30;
const BILLING_EMAIL_KINDS = ["billing.", "order."];

export async function sweepStripeEvents({ now }: { now: Date }): Promise<{ resent: string[]; emailsSent: number }> {
  const before = new Date(now.getTime() - STALE_AFTER_MS);
  const stale = await db.stripeEvent.findMany({
    where: { processedAt: null, receivedAt: { lt: before }, attempts: { lt: MAX_RESENDS } },
    orderBy: { receivedAt: "asc" },
    take: 200,
    select: { id: true },
  });
  const resent: string[] = [];
  for (const event of stale) {
    const { attempts } = await db.stripeEvent.update({
      where: { id: event.id },
      data: { attempts: { increment: 1 } },
      select: { attempts: true },
    });
    try {
      await sendStripeEventReceived(event.id, attempts);
      resent.push(event.id);
    } catch (error) {
      log.warn("stripe sweep: re-send failed", { event_id: event.id, error: String(error) });
    }
  }
  const queued = await db.emailOutbox.findMany({
    where: { status: "queued", createdAt: { lt: before }, OR: BILLING_EMAIL_KINDS.map((prefix) => ({ kind: { startsWith: prefix } })) },
    select: { id: true },
    take: 100,
  });
  let emailsSent = 0;
  for (const email of queued) {
    const outcome = await inTransaction((tx) => sendEmail(tx, email.id), SEND_EMAIL_TRANSACTION).catch((error: unknown) => ({
      status: "error",
      error: String(error),
    }));
    if (outcome.status === "sent") emailsSent++;
  }
  return { resent, emailsSent };
}
