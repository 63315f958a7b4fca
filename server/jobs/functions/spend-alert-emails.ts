import "server-only";
import { RetryAfterError } from "inngest";
import { EmailRetryableError, SEND_EMAIL_TRANSACTION, sendEmail, throwIfDeferred } from "../../email/send-email";
import { inngest } from "../../base/events/client";
import { spendAlertFired } from "../../base/events/definitions";
import { inTransaction } from "../../base/transaction";

// alerts/spend.fired → the spend alert's e-mails to the owners, one step each (Resend's
// Retry-After is honoured). Each outbox row is sent once whatever the retries (sendEmail skips a
// row no longer queued).

export const spendAlertEmails = inngest.createFunction(
  { id: "spend-alert-emails", triggers: [spendAlertFired], retries: 5 },
  async ({ event, step }) => {
    for (const emailId of event.data.emailIds) {
      await step.run(`email-${emailId}`, async () => {
        try {
          return throwIfDeferred(await inTransaction((tx) => sendEmail(tx, emailId), SEND_EMAIL_TRANSACTION));
        } catch (error) {
          if (error instanceof EmailRetryableError && error.retryAfterSeconds)
            throw new RetryAfterError(error.message, error.retryAfterSeconds * 1000);
          throw error;
        }
      });
    }
    return { emails: event.data.emailIds.length };
  },
);
