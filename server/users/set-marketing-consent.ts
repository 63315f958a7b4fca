import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { lockUser, userAccountIds } from "./user-account-ids";

// Marketing e-mail consent: opt in or out, with the moment it was given or withdrawn, and a
// `consent` event on each of the user's accounts (the user is the actor), so every account's
// audit feed shows it. Transactional e-mail (sign-in links, alerts, billing) ignores this flag.

export async function setMarketingConsent(tx: Tx, input: { userId: string; optIn: boolean }) {
  const user = await lockUser(tx, input.userId);
  if (user.marketingEmails === input.optIn) {
    const unchanged = await tx.user.findUniqueOrThrow({
      where: { id: user.id },
      select: { marketingEmails: true, marketingConsentAt: true },
    });
    return { ...unchanged, changed: false };
  }
  const now = new Date();
  const updated = await tx.user.update({
    where: { id: user.id },
    data: { marketingEmails: input.optIn, marketingConsentAt: now },
    select: { marketingEmails: true, marketingConsentAt: true },
  });
  const action = input.optIn ? "consent.marketing_opt_in" : "consent.marketing_opt_out";
  for (const accountId of await userAccountIds(tx, user.id)) {
    await recordActivity(tx, {
      accountId,
      actor: user.id,
      category: "consent",
      action,
      description: input.optIn ? `${user.email} opted in to marketing e-mails` : `${user.email} opted out of marketing e-mails`,
      metadata: { user_id: user.id, marketing_emails: input.optIn, at: now.toISOString() },
    });
  }
  return { ...updated, changed: true };
}
