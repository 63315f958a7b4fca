import "server-only";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import { Plan } from "../base/generated/prisma/enums";
import { isGuid } from "../base/guid";

// Sets an account's plan (operator CLI, billing webhooks). Limits follow the plan at once; credits
// are not granted here (renewals do that).

const plans = Object.values(Plan);

export type ChangePlanInput = { accountId: string; plan: string; actor?: ActivityActor };

export async function changePlan(tx: Tx, input: ChangePlanInput): Promise<{ account_id: string; plan: Plan; previous_plan: Plan }> {
  if (!(plans as string[]).includes(input.plan)) {
    throw invalidRequest(`Unknown plan: ${input.plan}. Plans: ${plans.join(", ")}.`, [{ field: "plan", message: "unknown plan" }]);
  }
  const plan = input.plan as Plan;
  const account = isGuid(input.accountId)
    ? await tx.account.findUnique({ where: { id: input.accountId }, select: { id: true, plan: true } })
    : null;
  if (!account) throw new ApiError("ERR1006", "Account not found.", { account_id: input.accountId });
  if (account.plan === plan) return { account_id: account.id, plan, previous_plan: account.plan };

  await tx.account.update({ where: { id: account.id }, data: { plan } });
  await recordActivity(tx, {
    accountId: account.id,
    actor: input.actor ?? "system",
    category: "account",
    action: "account.plan_changed",
    description: `Plan changed from ${account.plan} to ${plan}`,
    metadata: { previous_plan: account.plan, plan },
  });
  return { account_id: account.id, plan, previous_plan: account.plan };
}
