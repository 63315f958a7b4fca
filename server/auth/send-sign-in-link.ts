import "server-only";
import type { EmailConfig } from "next-auth/providers/email";
import { db } from "../base/db";
import { queueEmail } from "../email/queue-email";
import { SEND_EMAIL_TRANSACTION, sendEmail, throwIfDeferred } from "../email/send-email";
import { signInEmail } from "../email/templates/sign-in";
import { inTransaction } from "../base/transaction";
import { signInAddress } from "./sign-in-address";

// The e-mail provider of Auth.js, through our outbox: Resend when configured, else the dev
// mailbox. Links are limited per mailbox, per client and in total (sign-in-link-allowance, checked
// in the signIn callback, whose refusal Auth.js reports to the browser as AccessDenied), so the
// form cannot be used to flood an inbox. Only exactly one mailbox is ever written to
// (sign-in-address); anything else is answered as a good address is, and sent nothing.

export { consumeSignInLinkAllowance, SIGN_IN_LINKS_PER_WINDOW } from "./sign-in-link-allowance";

export const SIGN_IN_LINK_MAX_AGE_SECONDS = 15 * 60;

/** The e-mail provider's id: its links open /api/auth/callback/email. */
export const EMAIL_PROVIDER_ID = "email";

/**
 * The address as Auth.js stores it on a verification token and looks the user up by. Auth.js
 * answers an error here differently from a sent link, so an input that is not one mailbox is
 * handed on as typed (trimmed, lower case): the limits count it, and nothing is sent to it.
 */
export function normalizeEmailIdentifier(identifier: string): string {
  return (
    signInAddress(identifier) ??
    String(identifier ?? "")
      .trim()
      .toLowerCase()
  );
}

export function darkroomEmailProvider(): EmailConfig {
  return {
    id: EMAIL_PROVIDER_ID,
    type: "email",
    name: "E-mail",
    maxAge: SIGN_IN_LINK_MAX_AGE_SECONDS,
    normalizeIdentifier: normalizeEmailIdentifier,
    async sendVerificationRequest({ identifier, url }) {
      if (signInAddress(identifier) !== identifier) return;
      const message = signInEmail({ url, host: new URL(url).host, expiresInMinutes: SIGN_IN_LINK_MAX_AGE_SECONDS / 60 });
      const { id } = await queueEmail(db, { to: identifier, ...message, kind: "auth.sign_in" });
      const result = throwIfDeferred(await inTransaction((tx) => sendEmail(tx, id), SEND_EMAIL_TRANSACTION));
      if (result.status === "failed") throw new Error(`the sign-in e-mail could not be sent (${result.error})`);
    },
  };
}
