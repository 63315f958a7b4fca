import "server-only";
import type { AccountMembership } from "../accounts/find-membership";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Db, Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import type { MemberRole } from "../base/generated/prisma/enums";

// Which roles may run models from the dashboard (the playground and Compare): an account setting,
// owners and members by default. The primary owner always may, so someone always can.

/** The roles an owner chooses between; the primary owner is always in. */
export const choosableRunRoles = ["owner", "member"] as const satisfies readonly MemberRole[];

const roleWords: Record<MemberRole, string> = { primary_owner: "the primary owner", owner: "owners", member: "members" };

export async function readRunRoles(db: Db, accountId: string): Promise<MemberRole[]> {
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { playgroundRunRoles: true } });
  return withPrimaryOwner(account.playgroundRunRoles);
}

export function mayRun(role: MemberRole, roles: readonly MemberRole[]): boolean {
  return role === "primary_owner" || roles.includes(role);
}

/** Why this member may not run, in words the page shows; null when they may. */
export function runRefusal(role: MemberRole, roles: readonly MemberRole[]): string | null {
  if (mayRun(role, roles)) return null;
  return `On this account only ${describeRunRoles(roles)} may run models from the dashboard; your role is ${role}. An owner can change this in Settings.`;
}

export function describeRunRoles(roles: readonly MemberRole[]): string {
  const words = withPrimaryOwner(roles).map((role) => roleWords[role]);
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** ERR1003 unless the member's role may run. */
export async function assertMayRun(db: Db, membership: AccountMembership): Promise<void> {
  const refusal = runRefusal(membership.role, await readRunRoles(db, membership.accountId));
  if (refusal) throw new ApiError("ERR1003", refusal, { role: membership.role });
}

export async function setRunRoles(
  tx: Tx,
  input: { accountId: string; actor: ActivityActor; roles: readonly string[] },
): Promise<{ roles: MemberRole[] }> {
  const unknown = input.roles.filter((role) => !(choosableRunRoles as readonly string[]).includes(role));
  if (unknown.length > 0) {
    throw invalidRequest(`Unknown role: ${unknown.join(", ")}. Choose among ${choosableRunRoles.join(", ")}.`, [
      { field: "roles", message: `must be among ${choosableRunRoles.join(", ")}` },
    ]);
  }
  const roles = withPrimaryOwner(input.roles as MemberRole[]);
  await tx.account.update({ where: { id: input.accountId }, data: { playgroundRunRoles: roles } });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.actor,
    category: "account",
    action: "account.playground_roles_changed",
    description: `Models may be run from the dashboard by ${describeRunRoles(roles)}`,
    metadata: { roles },
  });
  return { roles };
}

function withPrimaryOwner(roles: readonly MemberRole[]): MemberRole[] {
  const order: MemberRole[] = ["primary_owner", "owner", "member"];
  return order.filter((role) => role === "primary_owner" || roles.includes(role));
}
