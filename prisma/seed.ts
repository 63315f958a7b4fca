import fs from "node:fs";
import path from "node:path";
import { db } from "../server/base/db";
import { env } from "../server/base/env";
import { createAccount } from "../server/accounts/create-account";
import { createApiKey } from "../server/keys/create-key";
import { formatCredits, decimalToMillis } from "../server/base/money";

// The demo account a development `npm start` makes: Pro plan, 25.000 credits (the 1.000 welcome
// credit plus a 24.000 operator top-up), one member login and a Full Access key. Idempotent: later
// starts reuse the account and its key. The key's raw value exists only in the answer of the start
// that made it (printed once, like every key); no file keeps it. A production start never seeds.

export const DEMO_EMAIL = "demo@darkroom.local";
const DEMO_KEY_NAME = "Demo key";

export type DemoSeed = {
  email: string;
  accountId: string;
  plan: string;
  balance: string;
  /** The raw key, only when this start made it; null when an earlier start did. */
  key: string | null;
  keyPrefix: string;
};

export async function seedDemo(): Promise<DemoSeed> {
  // Before 2026-11 the raw key was remembered in DATA_DIR/demo.json: no file may hold a usable key.
  fs.rmSync(path.resolve(env().DATA_DIR, "demo.json"), { force: true });

  let membership = await db.membership.findFirst({
    where: { user: { email: DEMO_EMAIL }, role: "primary_owner" },
    select: { accountId: true },
  });
  if (!membership) {
    const created = await db.$transaction((tx) =>
      createAccount(tx, { email: DEMO_EMAIL, name: "Demo Studio", plan: "pro", region: env().REGION, credits: 24_000 }),
    );
    membership = { accountId: created.account_id };
  }
  const accountId = membership.accountId;

  const existing = await db.apiKey.findFirst({
    where: { accountId, name: DEMO_KEY_NAME, status: "active" },
    orderBy: { createdAt: "desc" },
    select: { prefix: true },
  });
  let key: string | null = null;
  let keyPrefix = existing?.prefix ?? "";
  if (!existing) {
    const created = await db.$transaction((tx) => createApiKey(tx, { accountId, name: DEMO_KEY_NAME, preset: "full", actor: "system" }));
    key = created.key;
    keyPrefix = created.apikey_prefix;
  }

  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true, creditBalance: true } });
  return {
    email: DEMO_EMAIL,
    accountId,
    plan: account.plan,
    balance: formatCredits(decimalToMillis(account.creditBalance)).toFixed(3),
    key,
    keyPrefix,
  };
}
