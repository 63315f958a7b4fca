import { randomUUID } from "node:crypto";
import { z } from "zod";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { regions, type RegionName } from "../base/env";
import { invalidRequest } from "../base/error-table";
import { addCredits } from "../credits/add-credits";
import type { Millicredits } from "../base/money";
import { Plan } from "../base/generated/prisma/enums";

// A new account for a user (found or created by e-mail): primary-owner membership, the default
// low-balance threshold (0.50) and the 1.000 welcome credit, once per user.

export const WELCOME_CREDIT_MILLIS: Millicredits = 1000;
export const DEFAULT_ALERT_THRESHOLD = "0.500";
export const MAX_ACCOUNT_NAME_LENGTH = 100;
export const plans = Object.values(Plan);

export type CreateAccountInput = {
  email: string;
  name?: string;
  plan?: string;
  region?: string;
  /** Initial operator grant, in millicredits (1 credit = 1000). */
  credits?: Millicredits;
  actor?: ActivityActor;
  /** A team account (false) or the user's own (true, the default). */
  isPersonal?: boolean;
};

export type CreatedAccount = { account_id: string; user_id: string };

function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!z.email().safeParse(normalized).success)
    throw invalidRequest("The e-mail address is invalid.", [{ field: "email", message: "must be an e-mail address" }]);
  return normalized;
}

function accountName(name: string | undefined, email: string): string {
  const chosen = (name ?? email.split("@")[0] ?? email).trim();
  if (chosen.length < 1 || [...chosen].length > MAX_ACCOUNT_NAME_LENGTH) {
    throw invalidRequest(`The account name must be 1 to ${MAX_ACCOUNT_NAME_LENGTH} characters.`, [
      { field: "name", message: `must be 1 to ${MAX_ACCOUNT_NAME_LENGTH} characters` },
    ]);
  }
  return chosen;
}

export async function createAccount(tx: Tx, input: CreateAccountInput): Promise<CreatedAccount> {
  const email = normalizeEmail(input.email);
  const name = accountName(input.name, email);
  const plan = input.plan ?? "free";
  if (!(plans as string[]).includes(plan))
    throw invalidRequest(`Unknown plan: ${plan}. Plans: ${plans.join(", ")}.`, [{ field: "plan", message: "unknown plan" }]);
  const region = input.region ?? "us";
  if (!(regions as readonly string[]).includes(region))
    throw invalidRequest(`Unknown region: ${region}. Regions: ${regions.join(", ")}.`, [{ field: "region", message: "unknown region" }]);
  if (input.credits !== undefined && (!Number.isSafeInteger(input.credits) || input.credits <= 0)) {
    throw invalidRequest("Initial credits must be a positive amount.", [{ field: "credits", message: "must be positive" }]);
  }
  const actor = input.actor ?? "system";

  // Find or create the user, then hold its row: concurrent sign-ups of one e-mail meet here, and
  // only one of them can see the welcome credit as not yet granted.
  await tx.$executeRaw`INSERT INTO "user" (id, email, created_at, updated_at) VALUES (gen_random_uuid(), ${email}, now(), now()) ON CONFLICT (email) DO NOTHING`;
  const [user] = await tx.$queryRaw<Array<{ id: string; welcome_granted: boolean }>>`
    SELECT id::text AS id, welcome_credit_granted_at IS NOT NULL AS welcome_granted FROM "user" WHERE email = ${email} FOR UPDATE`;
  if (!user) throw new Error(`user ${email} vanished inside the transaction`);

  const account = await tx.account.create({
    data: { name, email, plan: plan as Plan, region: region as RegionName, isPersonal: input.isPersonal ?? true },
    select: { id: true },
  });
  await tx.membership.create({ data: { accountId: account.id, userId: user.id, role: "primary_owner" } });
  await tx.alertThreshold.create({ data: { accountId: account.id, amount: DEFAULT_ALERT_THRESHOLD } });
  await recordActivity(tx, {
    accountId: account.id,
    actor,
    category: "account",
    action: "account.created",
    description: `Account "${name}" created for ${email} (${plan}, ${region})`,
    metadata: { account_id: account.id, user_id: user.id, plan, region },
  });

  if (!user.welcome_granted) {
    await addCredits(tx, {
      accountId: account.id,
      amountMillis: WELCOME_CREDIT_MILLIS,
      sourceKey: `welcome:${user.id}`,
      description: "Welcome credit",
      actor,
    });
    await tx.user.update({ where: { id: user.id }, data: { welcomeCreditGrantedAt: new Date() } });
  }
  if (input.credits !== undefined) {
    await addCredits(tx, {
      accountId: account.id,
      amountMillis: input.credits,
      sourceKey: `operator:${randomUUID()}`,
      description: "Operator credit grant",
      actor,
    });
  }
  return { account_id: account.id, user_id: user.id };
}
