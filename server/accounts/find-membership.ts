import "server-only";
import { db, type Db } from "../base/db";
import type { MemberRole } from "../base/generated/prisma/enums";
import { isGuid } from "../base/guid";

// The user's place in an account, or null when they are not in it (or the id is malformed).
// The dashboard's layout and every tRPC procedure ask this before anything else.

export type AccountMembership = { accountId: string; role: MemberRole };

export async function findMembership(
  database: Db,
  { accountId, userId }: { accountId: string; userId: string },
): Promise<AccountMembership | null> {
  if (!isGuid(accountId) || !isGuid(userId)) return null;
  return database.membership.findUnique({ where: { accountId_userId: { accountId, userId } }, select: { accountId: true, role: true } });
}

/** The accounts a user belongs to, oldest membership first (the first is where /dashboard lands). */
export async function listMemberships(userId: string) {
  const memberships = await db.membership.findMany({
    where: { userId },
    include: { account: { select: { id: true, name: true, pictureUrl: true, plan: true, region: true } } },
    orderBy: { createdAt: "asc" },
  });
  return memberships.map((m) => ({
    accountId: m.account.id,
    name: m.account.name,
    pictureUrl: m.account.pictureUrl,
    plan: m.account.plan,
    region: m.account.region,
    role: m.role,
  }));
}
