import "server-only";
import type { AccountMembership } from "../accounts/find-membership";
import { accountDeletionBlockers } from "../accounts/account-deletion-blockers";
import { millisToDecimalString } from "../base/money";
import { getBalance } from "../ledger/get-balance";
import { db } from "../base/db";

// Everything the Settings page shows: the account's profile (as GET /v1/user/account returns it),
// the viewer's own profile and e-mail preferences, and whether the account can be deleted now.

export async function getSettings(membership: AccountMembership, userId: string) {
  const [account, user] = await Promise.all([
    db.account.findUniqueOrThrow({
      where: { id: membership.accountId },
      select: { id: true, name: true, email: true, pictureUrl: true, isPersonal: true, plan: true, createdAt: true },
    }),
    db.user.findUniqueOrThrow({
      where: { id: userId },
      select: { id: true, email: true, name: true, marketingEmails: true, marketingConsentAt: true },
    }),
  ]);
  const blockers = await accountDeletionBlockers(db, account);
  return {
    account: {
      accountId: account.id,
      name: account.name,
      email: account.email,
      pictureUrl: account.pictureUrl,
      isPersonal: account.isPersonal,
      plan: account.plan,
      createdAt: account.createdAt,
      creditBalance: millisToDecimalString(await getBalance(db, account.id)),
    },
    viewer: {
      userId: user.id,
      role: membership.role,
      email: user.email,
      name: user.name,
      marketingEmails: user.marketingEmails,
      marketingConsentAt: user.marketingConsentAt,
    },
    deletion: { blockers },
  };
}
