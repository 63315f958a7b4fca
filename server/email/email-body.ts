import { seal, unseal } from "../base/secrets/seal";

// An e-mail's body (text and HTML) as the outbox keeps it: sealed under ENCRYPTION_KEY and bound to
// its row, because a sign-in or invitation e-mail carries a link that works like a password. A
// database dump alone opens no body; once Resend has the e-mail the body is removed altogether.

export type EmailBody = { text: string; html: string };

/** The sealed-body columns of an outbox row. */
export type SealedBodyColumns = { sealedBody: string | null; bodyKeyId: string | null };

const contextOf = (outboxId: string) => `email_outbox.body:${outboxId}`;

export function sealEmailBody(outboxId: string, body: EmailBody): { sealedBody: string; bodyKeyId: string } {
  const sealed = seal(JSON.stringify({ text: body.text, html: body.html }), contextOf(outboxId));
  return { sealedBody: sealed.value, bodyKeyId: sealed.keyId };
}

/** The body, or null when the row keeps none (sent through Resend, failed) or it no longer opens (its key was retired). */
export function openEmailBody(outboxId: string, columns: SealedBodyColumns): EmailBody | null {
  if (columns.sealedBody === null || columns.bodyKeyId === null) return null;
  try {
    const body = JSON.parse(unseal({ value: columns.sealedBody, keyId: columns.bodyKeyId }, contextOf(outboxId))) as Partial<EmailBody>;
    return { text: body.text ?? "", html: body.html ?? "" };
  } catch {
    return null;
  }
}

/** The columns that remove a body once it is no longer needed. */
export const NO_BODY: SealedBodyColumns = { sealedBody: null, bodyKeyId: null };
