import "server-only";
import { db } from "../db";
import { env } from "../env";
import { log } from "../runtime/log";
import { resendClient } from "./resend-client";

// Delivers one queued outbox row. With RESEND_API_KEY: through the Resend SDK, the row locked
// meanwhile (a second sender waits, then finds it sent) and `email-outbox/<id>` as Resend's
// idempotency key (a resend after a crash between the API call and our commit is a no-op there).
// Without it: the row itself is the delivery (the dev mailbox) and a log line says so. Bodies are
// never logged: they may carry sign-in links.

const SEND_TIMEOUT_MS = 10_000;

export type SendEmailResult =
  { status: "sent"; via: "resend" | "dev_outbox"; providerId: string | null } | { status: "failed"; error: string } | { status: "skipped"; reason: "not_found" | "already_sent" | "already_failed" };

/** Resend could not take it now (rate limit, quota, outage, timeout): the row stays queued. */
export class EmailRetryableError extends Error {
  readonly retryAfterSeconds: number | undefined;
  constructor(message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = "EmailRetryableError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

type OutboxRow = { id: string; to: string; subject: string; html: string; text: string; kind: string; status: "queued" | "sent" | "failed" };

type Attempt =
  | { outcome: "sent"; providerId: string }
  | { outcome: "failed"; error: string }
  | { outcome: "retry"; error: string; retryAfterSeconds?: number }
  | { outcome: "skipped"; reason: "not_found" | "already_sent" | "already_failed" };

export async function sendEmail(outboxId: string): Promise<SendEmailResult> {
  const client = resendClient();
  if (!client) return deliverToDevOutbox(outboxId);

  const attempt = await db.$transaction(
    async (tx): Promise<Attempt> => {
      const [row] = await tx.$queryRaw<OutboxRow[]>`
        SELECT id::text AS id, "to", subject, html, text, kind, status::text AS status FROM email_outbox WHERE id = ${outboxId}::uuid FOR UPDATE`;
      if (!row) return { outcome: "skipped", reason: "not_found" };
      if (row.status !== "queued") return { outcome: "skipped", reason: row.status === "sent" ? "already_sent" : "already_failed" };

      const { data, error, headers } = await client.emails.send(
        { from: env().EMAIL_FROM, to: row.to, subject: row.subject, html: row.html, text: row.text },
        { idempotencyKey: `email-outbox/${row.id}`, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
      );
      if (data) {
        await tx.emailOutbox.update({ where: { id: row.id }, data: { status: "sent", providerId: data.id, sentAt: new Date(), error: null } });
        log.info("email sent", { email_id: row.id, kind: row.kind, to: row.to, subject: row.subject, provider_id: data.id });
        return { outcome: "sent", providerId: data.id };
      }
      const description = `${error.name}${error.statusCode ? ` (${error.statusCode})` : ""}: ${error.message}`;
      if (isRetryable(error.statusCode, error.name)) {
        const retryAfter = Number(headers?.["retry-after"]);
        return { outcome: "retry", error: description, retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined };
      }
      await tx.emailOutbox.update({ where: { id: row.id }, data: { status: "failed", error: description } });
      log.warn("email failed", { email_id: row.id, kind: row.kind, to: row.to, error: description });
      return { outcome: "failed", error: description };
    },
    { maxWait: 10_000, timeout: SEND_TIMEOUT_MS + 20_000 },
  );

  switch (attempt.outcome) {
    case "sent":
      return { status: "sent", via: "resend", providerId: attempt.providerId };
    case "failed":
      return { status: "failed", error: attempt.error };
    case "skipped":
      return { status: "skipped", reason: attempt.reason };
    case "retry":
      // Kept queued with the last error, for the dev mailbox and the next attempt.
      await db.emailOutbox.updateMany({ where: { id: outboxId, status: "queued" }, data: { error: attempt.error } });
      log.warn("email deferred", { email_id: outboxId, error: attempt.error });
      throw new EmailRetryableError(attempt.error, attempt.retryAfterSeconds);
  }
}

/** 429 (rate limit, quota), 5xx, no answer at all, and a concurrent request with our idempotency key. */
function isRetryable(statusCode: number | null, name: string): boolean {
  if (statusCode === null || statusCode === 429 || statusCode >= 500) return true;
  return name === "concurrent_idempotent_requests";
}

async function deliverToDevOutbox(outboxId: string): Promise<SendEmailResult> {
  const claimed = await db.emailOutbox.updateMany({ where: { id: outboxId, status: "queued" }, data: { status: "sent", sentAt: new Date(), error: null } });
  if (claimed.count === 0) {
    const row = await db.emailOutbox.findUnique({ where: { id: outboxId }, select: { status: true } });
    return { status: "skipped", reason: !row ? "not_found" : row.status === "failed" ? "already_failed" : "already_sent" };
  }
  const row = await db.emailOutbox.findUniqueOrThrow({ where: { id: outboxId }, select: { to: true, subject: true, kind: true } });
  log.info("email (dev outbox)", { email_id: outboxId, kind: row.kind, to: row.to, subject: row.subject });
  return { status: "sent", via: "dev_outbox", providerId: null };
}
