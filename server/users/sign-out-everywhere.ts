import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { lockUser, userAccountIds } from "./user-account-ids";

// Ends every session of the user: the session JWT carries the session version it was issued
// with, and the auth callback refuses a token whose version is not the user's current one
// (server/auth/session-version.ts); their records go too (server/auth/auth-session.ts). Recorded
// as `auth.signed_out_everywhere` on each account.

export async function signOutEverywhere(tx: Tx, input: { userId: string }): Promise<{ sessionVersion: number }> {
  const user = await lockUser(tx, input.userId);
  const { sessionVersion } = await tx.user.update({
    where: { id: user.id },
    data: { sessionVersion: { increment: 1 } },
    select: { sessionVersion: true },
  });
  await tx.authSession.deleteMany({ where: { userId: user.id } });
  for (const accountId of await userAccountIds(tx, user.id)) {
    await recordActivity(tx, {
      accountId,
      actor: user.id,
      category: "auth",
      action: "auth.signed_out_everywhere",
      description: `${user.email} signed out of every browser and device`,
      metadata: { user_id: user.id },
    });
  }
  return { sessionVersion };
}
