import "server-only";
import { db } from "../db";
import { planLimits, planNames } from "../plans/plan-limits";

// Retention by plan: webhook event logs (deliveries and their attempts) are kept for
// the account plan's webhookLogs window. An attempt goes when it is older than the window; a
// delivery when nothing about it is newer (a pending one is never purged). A dead letter is an
// event not delivered yet, not a log: it goes only once replayed longer ago than the window.

export async function purgeWebhookLogs(now = new Date()): Promise<{ attempts: number; deliveries: number; deadLetters: number }> {
  let attempts = 0;
  let deliveries = 0;
  let deadLetters = 0;
  for (const plan of planNames) {
    const cutoff = new Date(now.getTime() - planLimits[plan].retention.webhookLogs * 1000);
    attempts += (await db.webhookAttempt.deleteMany({ where: { createdAt: { lt: cutoff }, delivery: { account: { plan } } } })).count;
    deliveries += (
      await db.webhookDelivery.deleteMany({
        where: { account: { plan }, status: { not: "pending" }, createdAt: { lt: cutoff }, OR: [{ lastAttemptAt: null }, { lastAttemptAt: { lt: cutoff } }] },
      })
    ).count;
    deadLetters += (await db.deadLetter.deleteMany({ where: { account: { plan }, replayedAt: { lt: cutoff } } })).count;
  }
  return { attempts, deliveries, deadLetters };
}
