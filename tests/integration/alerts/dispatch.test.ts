import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { createAccount } from "@/server/accounts/create-account";
import { dispatchLowBalanceAlert, loadLowBalanceAlert } from "@/server/alerts/dispatch-low-balance-alert";
import { LOW_BALANCE_KIND } from "@/server/alerts/record-low-balance-alert";
import { inTransaction } from "@/server/base/transaction";
import { findUndispatchedAlerts, sweepUndispatchedAlerts } from "@/server/alerts/sweep-undispatched-alerts";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db, disconnectDb } from "@/server/base/db";
import { openEmailBody } from "@/server/email/email-body";
import { EmailRetryableError } from "@/server/email/send-email";
import { appUrl, resetEnvCache } from "@/server/base/env";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { startResendFake, type ResendFake } from "@/tests/fakes/resend-fake";
import { recordingEventSink } from "@/tests/support/event-sink";

// After commit: an alert's e-mails (Resend through the local fake, or the dev outbox), its
// `credits.low_balance` webhook event (a delivery per subscribed endpoint, a dead letter for a
// disabled one), the dispatched marker, and the sweep that catches alerts whose event was lost.

const { sink } = recordingEventSink();
const txOptions = { maxWait: 60_000, timeout: 60_000 };
const saved = { ...process.env };
let resend: ResendFake;

function useResend() {
  process.env.RESEND_API_KEY = resend.apiKey;
  process.env.RESEND_BASE_URL = resend.baseUrl;
  resetEnvCache();
}
function useDevOutbox() {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  resetEnvCache();
}

beforeAll(async () => {
  registerExecutor(sink);
  resend = await startResendFake();
});
afterEach(() => resend.reset());
afterAll(async () => {
  unregisterExecutor(sink);
  for (const name of ["RESEND_API_KEY", "RESEND_BASE_URL"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetEnvCache();
  await resend.close();
  await disconnectDb();
});

/** An account (primary owner + one owner) whose 0.50 threshold fired; returns the notification id. */
async function firedAlert(options: { name?: string } = {}) {
  const email = `dispatch-${randomUUID()}@test.local`;
  const { account_id: accountId } = await inTransaction(
    (tx) => createAccount(tx, { email, ...(options.name ? { name: options.name } : {}) }),
    txOptions,
  );
  const owner = await db.user.create({ data: { email: `owner-${randomUUID()}@test.local` } });
  await db.membership.create({ data: { accountId, userId: owner.id, role: "owner" } });
  const generation = await db.generation.create({
    data: { accountId, region: "us", mediaKind: "image", status: "processing", modelIdentifier: "test/model", estimatedCost: "0.700" },
    select: { id: true },
  });
  await inTransaction(
    (tx) =>
      reserveCredits(tx, { accountId, generationId: generation.id, amountMillis: 700, modelIdentifier: "test/model", description: "test" }),
    txOptions,
  );
  const notification = await db.notification.findFirstOrThrow({ where: { accountId, kind: LOW_BALANCE_KIND } });
  return { accountId, notificationId: notification.id, recipients: [email, owner.email].sort() };
}

const endpoint = (accountId: string, enabled: boolean, events = ["credits.low_balance"]) =>
  db.webhookEndpoint.create({
    data: {
      accountId,
      url: "https://hooks.example.com/darkroom",
      events,
      secret: `whsec_${randomBytes(24).toString("hex")}`,
      enabled,
      ...(enabled ? {} : { disabledAt: new Date() }),
    },
  });

const dispatchedMarkers = (accountId: string) => db.activityEvent.findMany({ where: { accountId, action: "alert.dispatched" } });

describe("dispatchLowBalanceAlert", () => {
  it("dev outbox: e-mails every owner, emits credits.low_balance, marks it dispatched, once", async () => {
    useDevOutbox();
    const { accountId, notificationId, recipients } = await firedAlert();
    const subscribed = await endpoint(accountId, true);
    await endpoint(accountId, true, ["generation.completed"]);
    const disabled = await endpoint(accountId, false);

    const result = await dispatchLowBalanceAlert(notificationId);
    expect(result.status).toBe("dispatched");
    expect(result.status === "dispatched" && result.emails).toEqual([
      { status: "sent", via: "dev_outbox", providerId: null },
      { status: "sent", via: "dev_outbox", providerId: null },
    ]);
    const loaded = await loadLowBalanceAlert(notificationId);
    const emails = await db.emailOutbox.findMany({ where: { id: { in: loaded!.alert.emailIds } } });
    expect(emails.map((email) => email.to).sort()).toEqual(recipients);
    expect(emails.every((email) => email.status === "sent" && email.kind === LOW_BALANCE_KIND)).toBe(true);
    expect(openEmailBody(emails[0]!.id, emails[0]!)?.text).toContain(`${appUrl()}/dashboard/${accountId}`);

    // The webhook event: one delivery to the subscribed endpoint, a dead letter for the disabled one.
    const eventKey = `credits.low_balance:${notificationId}`;
    const deliveries = await db.webhookDelivery.findMany({ where: { accountId } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ endpointId: subscribed.id, event: "credits.low_balance", eventKey });
    expect((deliveries[0]!.payload as { webhook_data: unknown }).webhook_data).toEqual({
      account_id: accountId,
      current_balance: 0.3,
      thresholds_crossed: [{ threshold: 0.5, balance_at: 0.3 }],
    });
    const deadLetters = await db.deadLetter.findMany({ where: { accountId } });
    expect(deadLetters).toHaveLength(1);
    expect(deadLetters[0]).toMatchObject({ endpointId: disabled.id, event: "credits.low_balance", eventKey });

    expect(await dispatchedMarkers(accountId)).toHaveLength(1);
    expect((await dispatchedMarkers(accountId))[0]).toMatchObject({
      category: "notification",
      metadata: { notification_id: notificationId, emails_sent: 2, emails_failed: 0 },
    });

    // Again (the event and the sweep may both run it): nothing new.
    expect(await dispatchLowBalanceAlert(notificationId)).toEqual({ status: "skipped", reason: "already_dispatched" });
    expect(await db.webhookDelivery.count({ where: { accountId } })).toBe(1);
    expect(await dispatchedMarkers(accountId)).toHaveLength(1);
  });

  it("with RESEND_API_KEY: the owners' e-mails go through Resend and carry its ids", async () => {
    useResend();
    const { accountId, notificationId, recipients } = await firedAlert({ name: "Acme <Studio>" });
    const result = await dispatchLowBalanceAlert(notificationId);
    expect(result.status).toBe("dispatched");

    expect(resend.emails.map((email) => email.to[0]).sort()).toEqual(recipients);
    for (const email of resend.emails) {
      expect(email.from).toBe("Darkroom <alerts@darkroom.local>");
      expect(email.subject).toBe("Low balance: Acme <Studio> is below 0.500 credits");
      expect(email.text).toContain("The credit balance of Acme <Studio> is 0.300.");
      expect(email.html).toContain("Acme &lt;Studio&gt;");
      expect(email.html).toContain(`href="${appUrl()}/dashboard/${accountId}"`);
    }
    const loaded = await loadLowBalanceAlert(notificationId);
    const rows = await db.emailOutbox.findMany({ where: { id: { in: loaded!.alert.emailIds } } });
    expect(rows.map((row) => row.providerId).sort()).toEqual(resend.emails.map((email) => email.id).sort());
    expect(loaded!.dispatched).toBe(true);
  });

  it("a rate-limited e-mail leaves the alert undispatched; the sweep finishes it without sending twice", async () => {
    useResend();
    const { accountId, notificationId } = await firedAlert();
    resend.script({ fail: "rate_limit", failTimes: 1 });
    const error = await dispatchLowBalanceAlert(notificationId).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(EmailRetryableError);
    expect(await dispatchedMarkers(accountId)).toHaveLength(0);

    // Not swept during the grace (the event-driven run has its turn); swept after it.
    expect(await findUndispatchedAlerts(db, accountScope(accountId))).toEqual([]);
    const later = new Date(Date.now() + 3 * 60_000);
    expect(await findUndispatchedAlerts(db, accountScope(accountId), { now: later })).toEqual([notificationId]);
    expect(await sweepUndispatchedAlerts(db, accountScope(accountId), { now: later })).toEqual({ [notificationId]: "dispatched" });

    expect(resend.emails).toHaveLength(2);
    expect(new Set(resend.emails.map((email) => email.to[0])).size).toBe(2);
    expect(await dispatchedMarkers(accountId)).toHaveLength(1);
    expect(await findUndispatchedAlerts(db, accountScope(accountId), { now: later })).toEqual([]);
  });

  it("skips what is not a committed low-balance alert", async () => {
    expect(await dispatchLowBalanceAlert(randomUUID())).toEqual({ status: "skipped", reason: "not_found" });
    expect(await dispatchLowBalanceAlert("not-a-uuid")).toEqual({ status: "skipped", reason: "not_found" });
  });
});
