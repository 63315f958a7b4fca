import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { accountDeletionBlockers } from "./account-deletion-blockers";
import { lockAccountRow } from "./lock-account-row";

// Deleting a team account (the primary owner, after typing its name). A soft delete: the account
// row, its ledger, orders, generations and activity stay, so the money it moved stays auditable
// and Stripe's later events still find it. Everything that lets anyone act on it goes, in one
// transaction: keys revoked (the API answers ERR1002), webhooks disabled, open invitations
// revoked, a custom hostname released, every membership removed (it leaves every switcher), its
// playground uploads expired (their objects deleted right after, by the caller's expireUploads).
// Refused for personal accounts, a live subscription, generations in flight and open orders.

export async function deleteTeamAccount(tx: Tx, input: { accountId: string; actor: string; confirmName: string }) {
  const account = await lockAccountRow(tx, input.accountId);
  if (input.confirmName.trim() !== account.name) {
    throw invalidRequest("Type the account's name exactly to confirm the deletion.", [
      { field: "confirmName", message: "does not match the account name" },
    ]);
  }
  const [blocker] = await accountDeletionBlockers(tx, account);
  if (blocker) throw invalidRequest(blocker.message, [{ field: "account", message: blocker.reason }]);

  const now = new Date();
  const balance = await tx.account.findUniqueOrThrow({ where: { id: account.id }, select: { creditBalance: true } });
  const keys = await tx.apiKey.updateMany({
    where: { accountId: account.id, status: { not: "revoked" } },
    data: { status: "revoked", revokedAt: now },
  });
  const webhooks = await tx.webhookEndpoint.updateMany({
    where: { accountId: account.id, enabled: true },
    data: { enabled: false, disabledAt: now },
  });
  const invitations = await tx.invitation.updateMany({
    where: { accountId: account.id, acceptedAt: null, revokedAt: null, declinedAt: null },
    data: { revokedAt: now },
  });
  await tx.customHostname.deleteMany({ where: { accountId: account.id } });
  await tx.playgroundUpload.updateMany({ where: { accountId: account.id, expiresAt: { gt: now } }, data: { expiresAt: now } });
  const members = await tx.membership.findMany({ where: { accountId: account.id }, select: { userId: true, role: true } });
  await tx.membership.deleteMany({ where: { accountId: account.id } });
  await tx.account.update({ where: { id: account.id }, data: { deletedAt: now, deletedById: input.actor } });

  await recordActivity(tx, {
    accountId: account.id,
    actor: input.actor,
    category: "account",
    action: "account.deleted",
    description: `Account "${account.name}" deleted`,
    metadata: {
      credit_balance: balance.creditBalance.toFixed(3),
      api_keys_revoked: keys.count,
      webhooks_disabled: webhooks.count,
      invitations_revoked: invitations.count,
      members_removed: members.map((member) => ({ user_id: member.userId, role: member.role })),
    },
  });
  await tellFormerMembers(tx, { accountName: account.name, actor: input.actor, userIds: members.map((member) => member.userId) });

  const next = await tx.membership.findFirst({
    where: { userId: input.actor },
    orderBy: { createdAt: "asc" },
    select: { accountId: true },
  });
  return { accountId: account.id, nextAccountId: next?.accountId ?? null };
}

/** Everyone else who was in the account hears of it in the bell of the account they land in. */
async function tellFormerMembers(tx: Tx, input: { accountName: string; actor: string; userIds: string[] }) {
  const actor = await tx.user.findUnique({ where: { id: input.actor }, select: { email: true } });
  for (const userId of input.userIds) {
    if (userId === input.actor) continue;
    const home = await tx.membership.findFirst({ where: { userId }, orderBy: { createdAt: "asc" }, select: { accountId: true } });
    if (!home) continue;
    await tx.notification.create({
      data: {
        accountId: home.accountId,
        userId,
        kind: "account.deleted",
        title: `${input.accountName} was deleted`,
        body: `${actor?.email ?? "Its primary owner"} deleted the team account ${input.accountName}. Its API keys no longer work and you no longer have access to it.`,
      },
    });
  }
}
