import { db } from "@/server/base/db";
import { createAccount } from "@/server/accounts/create-account";
import { createApiKey, type CreateApiKeyInput } from "@/server/keys/create-key";
import type { PlanName } from "@/server/plans/plan-limits";
import type { RegionName } from "@/server/base/env";
import type { MemberRole } from "@/server/base/generated/prisma/enums";
import { uniqueEmail } from "@/tests/support/http";
import { inTransaction } from "@/server/base/transaction";

// Accounts and keys made through the real domain functions, each test with its own account.

export async function createTestAccount(options: { plan?: PlanName; region?: RegionName; email?: string } = {}) {
  const email = options.email ?? uniqueEmail("account");
  const created = await inTransaction((tx) => createAccount(tx, { email, plan: options.plan ?? "pro", region: options.region ?? "us" }));
  return { accountId: created.account_id, userId: created.user_id, email };
}

export async function createTestKey(accountId: string, options: Partial<Omit<CreateApiKeyInput, "accountId" | "actor">> = {}) {
  const input = { name: options.name ?? "test key", ...options, accountId, actor: "system" as const };
  if (!input.preset && !input.scopes) input.preset = "full";
  return inTransaction((tx) => createApiKey(tx, input));
}

/** An account with one Full Access key: the common starting point. */
export async function accountWithKey(options: { plan?: PlanName; region?: RegionName; preset?: string } = {}) {
  const account = await createTestAccount(options);
  const key = await createTestKey(account.accountId, { preset: options.preset ?? "full" });
  return { ...account, key: key.key, keyId: key.apikey_id, prefix: key.apikey_prefix };
}

/** Fixed one-minute windows: start a rate-limit sequence with enough of the minute left. */
export async function awayFromWindowEdge(secondsNeeded = 15) {
  const intoMinute = (Date.now() / 1000) % 60;
  if (60 - intoMinute < secondsNeeded) await new Promise((resolve) => setTimeout(resolve, (60 - intoMinute) * 1000 + 200));
}

/** A new user with this role in the account (dashboard role tests). Returns the user id. */
export async function addTeamMember(accountId: string, role: MemberRole): Promise<string> {
  const user = await db.user.create({ data: { email: uniqueEmail(role) } });
  await db.membership.create({ data: { accountId, userId: user.id, role } });
  return user.id;
}

/** An account with its primary owner, an owner and a member (dashboard role tests). */
export async function createTestTeam() {
  const { accountId, userId: primaryOwner } = await createTestAccount();
  const owner = await addTeamMember(accountId, "owner");
  const member = await addTeamMember(accountId, "member");
  return { accountId, primaryOwner, owner, member };
}
