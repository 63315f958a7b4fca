import "server-only";
import { createHash } from "node:crypto";
import type { EmailConfig } from "next-auth/providers/email";
import { db } from "../db";
import { queueEmail } from "../email/queue-email";
import { SEND_EMAIL_TRANSACTION, sendEmail, throwIfDeferred } from "../email/send-email";
import { signInEmail } from "../email/templates/sign-in";
import { counterStore } from "../rate-limit/counter-store";
import { inTransaction } from "../transaction";

// The e-mail provider of Auth.js, through our outbox: Resend when configured, else the dev
// mailbox. Links per address are limited (checked in the signIn callback, whose refusal Auth.js
// reports to the browser as AccessDenied), so the form cannot be used to flood an inbox.

export const SIGN_IN_LINK_MAX_AGE_SECONDS = 15 * 60;
export const SIGN_IN_LINKS_PER_WINDOW = 5;
const WINDOW_SECONDS = 10 * 60;

export async function consumeSignInLinkAllowance(email: string, now = Date.now()): Promise<boolean> {
  const windowStart = new Date(Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS * 1000);
  const bucket = `sign-in:${createHash("sha256").update(email).digest("hex").slice(0, 32)}`;
  const count = await counterStore().increment(bucket, windowStart, WINDOW_SECONDS);
  return count <= SIGN_IN_LINKS_PER_WINDOW;
}

/** The e-mail provider's id: its links open /api/auth/callback/email. */
export const EMAIL_PROVIDER_ID = "email";

/** The address as Auth.js stores it on a verification token and looks the user up by. */
export function normalizeEmailIdentifier(identifier: string): string {
  return identifier.trim().toLowerCase();
}

export function darkroomEmailProvider(): EmailConfig {
  return {
    id: EMAIL_PROVIDER_ID,
    type: "email",
    name: "E-mail",
    maxAge: SIGN_IN_LINK_MAX_AGE_SECONDS,
    normalizeIdentifier: normalizeEmailIdentifier,
    async sendVerificationRequest({ identifier, url }) {
      const message = signInEmail({ url, host: new URL(url).host, expiresInMinutes: SIGN_IN_LINK_MAX_AGE_SECONDS / 60 });
      const { id } = await queueEmail(db, { to: identifier, ...message, kind: "auth.sign_in" });
      const result = throwIfDeferred(await inTransaction((tx) => sendEmail(tx, id), SEND_EMAIL_TRANSACTION));
      if (result.status === "failed") throw new Error(`the sign-in e-mail could not be sent (${result.error})`);
    },
  };
}
