import type { Db } from "../db";

// The outbox: every e-mail is a row first, written in the caller's transaction
// when there is one, so it commits or rolls back with the change that caused it. `sendEmail`
// delivers it later, through Resend or, without RESEND_API_KEY, by leaving it in the dev mailbox.

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What the e-mail is about, for the dev mailbox and logs: "credits.low_balance", "auth.sign_in". */
  kind: string;
};

export async function queueEmail(client: Db, message: EmailMessage): Promise<{ id: string }> {
  return client.emailOutbox.create({
    data: { to: message.to, subject: message.subject, text: message.text, html: message.html, kind: message.kind, status: "queued" },
    select: { id: true },
  });
}
