import { randomUUID } from "node:crypto";
import type { Db } from "../base/db";
import { sealEmailBody } from "./email-body";

// The outbox: every e-mail is a row first, written in the caller's transaction
// when there is one, so it commits or rolls back with the change that caused it. `sendEmail`
// delivers it later, through Resend or, without RESEND_API_KEY, by leaving it in the dev mailbox.
// The body is stored sealed (./email-body.ts): it may carry a sign-in or invitation link.

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What the e-mail is about, for the dev mailbox and logs: "credits.low_balance", "auth.sign_in". */
  kind: string;
};

export async function queueEmail(client: Db, message: EmailMessage): Promise<{ id: string }> {
  // The id is chosen here: the sealed body is bound to it.
  const id = randomUUID();
  return client.emailOutbox.create({
    data: { id, to: message.to, subject: message.subject, ...sealEmailBody(id, message), kind: message.kind, status: "queued" },
    select: { id: true },
  });
}
