import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { PRIVACY_VERSION, TERMS_VERSION } from "./legal-versions";

// Browsewrap at sign-in: the login page says that continuing means agreeing to the Terms of
// Service and the Privacy Policy. A sign-in under versions the user has not agreed to yet (their
// first, or the first after a new version) stores the versions on the user and records
// consent.terms_accepted / consent.privacy_accepted on each of their accounts.

export type LegalAcceptance = { termsAccepted: boolean; privacyAccepted: boolean };

export async function acceptLegalTermsAtSignIn(tx: Tx, userId: string, now = new Date()): Promise<LegalAcceptance> {
  // The row lock makes two sign-ins at once record the acceptance once.
  const [user] = await tx.$queryRaw<Array<{ terms_version: string | null; privacy_version: string | null }>>`
    SELECT terms_version, privacy_version FROM "user" WHERE id = ${userId}::uuid FOR UPDATE`;
  if (!user) return { termsAccepted: false, privacyAccepted: false };
  const termsAccepted = user.terms_version !== TERMS_VERSION;
  const privacyAccepted = user.privacy_version !== PRIVACY_VERSION;
  if (!termsAccepted && !privacyAccepted) return { termsAccepted, privacyAccepted };

  await tx.user.update({
    where: { id: userId },
    data: { termsVersion: TERMS_VERSION, privacyVersion: PRIVACY_VERSION, termsAcceptedAt: now },
  });
  const memberships = await tx.membership.findMany({ where: { userId }, select: { accountId: true } });
  const metadata = {
    terms_version: TERMS_VERSION,
    privacy_version: PRIVACY_VERSION,
    accepted_at: now.toISOString(),
    accepted_by: "sign_in",
  };
  for (const { accountId } of memberships) {
    if (termsAccepted) {
      await recordActivity(tx, {
        accountId,
        actor: userId,
        category: "consent",
        action: "consent.terms_accepted",
        description: `Terms of Service (version ${TERMS_VERSION}) accepted at sign-in`,
        metadata,
      });
    }
    if (privacyAccepted) {
      await recordActivity(tx, {
        accountId,
        actor: userId,
        category: "consent",
        action: "consent.privacy_accepted",
        description: `Privacy Policy (version ${PRIVACY_VERSION}) accepted at sign-in`,
        metadata,
      });
    }
  }
  return { termsAccepted, privacyAccepted };
}
