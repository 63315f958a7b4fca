import "server-only";
import type { Tx } from "../base/db";

/** Every account the user is a member of: a user's own events (consent, sign-outs) go to each. */
export async function userAccountIds(tx: Tx, userId: string): Promise<string[]> {
  const memberships = await tx.membership.findMany({ where: { userId }, select: { accountId: true }, orderBy: { createdAt: "asc" } });
  return memberships.map((membership) => membership.accountId);
}

/** The user's row, locked: their own settings change one at a time. */
export async function lockUser(tx: Tx, userId: string) {
  const [user] = await tx.$queryRaw<
    Array<{ id: string; email: string; name: string | null; marketingEmails: boolean; sessionVersion: number }>
  >`
    SELECT id::text AS id, email, name, marketing_emails AS "marketingEmails", session_version AS "sessionVersion"
    FROM "user" WHERE id = ${userId}::uuid FOR UPDATE`;
  if (!user) throw new Error(`user ${userId} not found`);
  return user;
}
