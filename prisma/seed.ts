import fs from "node:fs";
import path from "node:path";
import { db } from "../server/db";
import { env } from "../server/env";
import { createAccount } from "../server/accounts/create-account";
import { createApiKey } from "../server/keys/create-key";
import { hashApiKey } from "../server/keys/generate-key";
import { formatCredits, decimalToMillis } from "../server/credits/money";

// The demo account `npm start` prints: Pro plan, 25.000 credits (the 1.000 welcome credit plus a
// 24.000 operator top-up), one member login and a Full Access key. Idempotent: later starts reuse
// the account and the key, whose raw value (shown once by design) is remembered in DATA_DIR only.

export const DEMO_EMAIL = "demo@darkroom.local";

type DemoFile = { accountId: string; key: string };

export async function seedDemo() {
  const file = path.resolve(env().DATA_DIR, "demo.json");
  let remembered: DemoFile | null = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as DemoFile) : null;

  let membership = await db.membership.findFirst({ where: { user: { email: DEMO_EMAIL }, role: "primary_owner" }, select: { accountId: true } });
  if (!membership) {
    const created = await db.$transaction((tx) => createAccount(tx, { email: DEMO_EMAIL, name: "Demo Studio", plan: "pro", region: env().REGION, credits: 24_000 }));
    membership = { accountId: created.account_id };
  }
  const accountId = membership.accountId;

  const keyStillWorks = remembered?.accountId === accountId && (await db.apiKey.count({ where: { hash: hashApiKey(remembered.key), status: "active", accountId } })) === 1;
  if (!keyStillWorks) {
    const key = await db.$transaction((tx) => createApiKey(tx, { accountId, name: "Demo key", preset: "full", actor: "system" }));
    remembered = { accountId, key: key.key };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(remembered), { mode: 0o600 });
  }

  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true, creditBalance: true } });
  return { email: DEMO_EMAIL, accountId, plan: account.plan, balance: formatCredits(decimalToMillis(account.creditBalance)).toFixed(3), key: remembered!.key };
}
