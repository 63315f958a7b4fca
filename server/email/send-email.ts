import "server-only";
import type { Tx } from "../base/db";
import { env } from "../base/env";
import { log } from "../base/log";
import { devMailboxEnabled } from "./dev-mailbox";
import { NO_BODY, openEmailBody } from "./email-body";
import { resendClient } from "./resend-client";

// Delivers one queued outbox row in the caller's transaction (opened with SEND_EMAIL_TRANSACTION).
// With RESEND_API_KEY: through the Resend SDK, the row locked meanwhile (a second sender waits,
// then finds it sent) and `email-outbox/<id>` as Resend's idempotency key (a resend after a crash
// between the API call and our commit is a no-op there). Without it: the row itself is the
// delivery (the dev mailbox) and a log line says so. Bodies are never logged: they may carry
// sign-in links. For the same reason a row keeps its (sealed) body only while it may still be
// sent, and in the dev mailbox: once Resend has it, or it failed for good, the body is removed and
// the row keeps who, what and when.

const SEND_TIMEOUT_MS = 10_000;

/** The transaction options sendEmail needs: its row stays locked across the Resend call. */
export const SEND_EMAIL_TRANSACTION = { maxWait: 10_000, timeout: SEND_TIMEOUT_MS + 20_000 };

export type SendEmailResult =
  | { status: "sent"; via: "resend" | "dev_outbox"; providerId: string | null }
  | { status: "failed"; error: string }
  | { status: "skipped"; reason: "not_found" | "already_sent" | "already_failed" };

/** A result, or `deferred`: kept queued with its last error, which commits before throwIfDeferred throws. */
export type SendEmailOutcome = SendEmailResult | { status: "deferred"; error: string; retryAfterSeconds: number | undefined };

/** Resend could not take it now (rate limit, quota, outage, timeout): the row stays queued. */
export class EmailRetryableError extends Error {
  readonly retryAfterSeconds: number | undefined;
  constructor(message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = "EmailRetryableError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

type OutboxRow = {
  id: string;
  to: string;
  subject: string;
  sealedBody: string | null;
  bodyKeyId: string | null;
  kind: string;
  status: "queued" | "sent" | "failed";
};

export async function sendEmail(tx: Tx, outboxId: string): Promise<SendEmailOutcome> {
  const client = await resendClient();
  if (!client) return deliverToDevOutbox(tx, outboxId);

  const [row] = await tx.$queryRaw<OutboxRow[]>`
    SELECT id::text AS id, "to", subject, sealed_body AS "sealedBody", body_key_id AS "bodyKeyId", kind, status::text AS status
    FROM email_outbox WHERE id = ${outboxId}::uuid FOR UPDATE`;
  if (!row) return { status: "skipped", reason: "not_found" };
  if (row.status !== "queued") return { status: "skipped", reason: row.status === "sent" ? "already_sent" : "already_failed" };
  const body = openEmailBody(row.id, row);
  if (!body)
    return markFailed(
      tx,
      row,
      "The body is missing or does not open with the configured keys (ENCRYPTION_KEY, ENCRYPTION_KEYS_PREVIOUS): ask for the e-mail again",
    );

  const { data, error, headers } = await client.emails.send(
    { from: env().EMAIL_FROM, to: row.to, subject: row.subject, html: body.html, text: body.text },
    { idempotencyKey: `email-outbox/${row.id}`, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
  );
  if (data) {
    await tx.emailOutbox.update({
      where: { id: row.id },
      data: { status: "sent", providerId: data.id, sentAt: new Date(), error: null, ...NO_BODY },
    });
    log.info("email sent", { email_id: row.id, kind: row.kind, to: row.to, subject: row.subject, provider_id: data.id });
    return { status: "sent", via: "resend", providerId: data.id };
  }
  const description = `${error.name}${error.statusCode ? ` (${error.statusCode})` : ""}: ${error.message}`;
  if (isRetryable(error.statusCode, error.name)) {
    // Kept queued with the last error, for the dev mailbox and the next attempt.
    await tx.emailOutbox.update({ where: { id: row.id }, data: { error: description } });
    log.warn("email deferred", { email_id: row.id, error: description });
    const retryAfter = Number(headers?.["retry-after"]);
    return {
      status: "deferred",
      error: description,
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    };
  }
  return markFailed(tx, row, description);
}

async function markFailed(tx: Tx, row: OutboxRow, description: string): Promise<SendEmailResult> {
  await tx.emailOutbox.update({ where: { id: row.id }, data: { status: "failed", error: description, ...NO_BODY } });
  log.warn("email failed", { email_id: row.id, kind: row.kind, to: row.to, error: description });
  return { status: "failed", error: description };
}

/** After commit: a deferred e-mail becomes an EmailRetryableError for the caller to retry; any other outcome is its result. */
export function throwIfDeferred(outcome: SendEmailOutcome): SendEmailResult {
  if (outcome.status === "deferred") throw new EmailRetryableError(outcome.error, outcome.retryAfterSeconds);
  return outcome;
}

/** 429 (rate limit, quota), 5xx, no answer at all, and a concurrent request with our idempotency key. */
function isRetryable(statusCode: number | null, name: string): boolean {
  if (statusCode === null || statusCode === 429 || statusCode >= 500) return true;
  return name === "concurrent_idempotent_requests";
}

/** The row is the delivery: the dev mailbox reads its sealed body. Where there is no dev mailbox (production), nobody would: the body goes. */
async function deliverToDevOutbox(tx: Tx, outboxId: string): Promise<SendEmailResult> {
  const claimed = await tx.emailOutbox.updateMany({
    where: { id: outboxId, status: "queued" },
    data: { status: "sent", sentAt: new Date(), error: null, ...(devMailboxEnabled() ? {} : NO_BODY) },
  });
  if (claimed.count === 0) {
    const row = await tx.emailOutbox.findUnique({ where: { id: outboxId }, select: { status: true } });
    return { status: "skipped", reason: !row ? "not_found" : row.status === "failed" ? "already_failed" : "already_sent" };
  }
  const row = await tx.emailOutbox.findUniqueOrThrow({ where: { id: outboxId }, select: { to: true, subject: true, kind: true } });
  log.info("email (dev outbox)", { email_id: outboxId, kind: row.kind, to: row.to, subject: row.subject });
  return { status: "sent", via: "dev_outbox", providerId: null };
}
