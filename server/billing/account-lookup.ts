import type { Tx } from "../base/db";
import { isGuid } from "../base/guid";

// Finding the account a Stripe object belongs to (its metadata's account_id, or the customer we
// stored), and locking it: every billing change of one account runs under its row lock, so two
// events of the same account apply one after the other and the later re-read wins.

export type StripeRef = string | { id: string } | null | undefined;

export const idOf = (ref: StripeRef): string | null => (ref === null || ref === undefined ? null : typeof ref === "string" ? ref : ref.id);

/** `claimedAccount`: the account id a Stripe object's metadata names (checked to exist); else the stored customer. */
export async function resolveAccount(tx: Tx, hints: { claimedAccount: string | null; customer: StripeRef }): Promise<string | null> {
  if (hints.claimedAccount && isGuid(hints.claimedAccount)) {
    const account = await tx.account.findUnique({ where: { id: hints.claimedAccount }, select: { id: true } });
    if (account) return account.id;
  }
  const customerId = idOf(hints.customer);
  if (!customerId) return null;
  const account = await tx.account.findUnique({ where: { stripeCustomerId: customerId }, select: { id: true } });
  return account?.id ?? null;
}

export async function lockAccount(tx: Tx, accountId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM account WHERE id = ${accountId}::uuid FOR UPDATE`;
}

/** Remembers the account's Stripe customer the first time an event names it. */
export async function rememberCustomer(tx: Tx, accountId: string, customer: StripeRef): Promise<void> {
  const customerId = idOf(customer);
  if (!customerId) return;
  const holder = await tx.account.findUnique({ where: { stripeCustomerId: customerId }, select: { id: true } });
  if (!holder) await tx.account.updateMany({ where: { id: accountId, stripeCustomerId: null }, data: { stripeCustomerId: customerId } });
}
