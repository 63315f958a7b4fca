import { recordActivity } from "../../activity/record-activity";
import type { OneAccount } from "../../base/account-scope";
import type { Db, Tx } from "../../base/db";
import { invalidRequest } from "../../base/error-table";
import { millisToDecimalString } from "../../base/money";
import { allowsPacks } from "../../plans/subscription-status";
import { stripeClient } from "../stripe-client";
import { findCatalogPrice } from "../stripe-prices";
import { API_FIELDS, parseAutoTopUp, showAutoTopUp, type AutoTopUpFields, type AutoTopUpRequest, type AutoTopUpView } from "./setting";

// Turning auto top-up on or changing it (the primary owner, the operator's CLI) and turning it off.
// On needs an active subscription (packs are sold only on one) and the pack's Stripe price, read
// before the transaction. Without a saved card the setting is kept off until the card is saved
// (card-setup.ts turns it on). A new setting resumes a paused one and clears its declines.

export type SetAutoTopUpInput = { actor: string; request: AutoTopUpRequest; fields?: AutoTopUpFields };
export type PreparedAutoTopUp = ReturnType<typeof parseAutoTopUp> & { actor: string; packAmountCents: number; currency: string };

export async function prepareAutoTopUp(db: Db, scope: OneAccount, input: SetAutoTopUpInput): Promise<PreparedAutoTopUp> {
  const fields = input.fields ?? API_FIELDS;
  const parsed = parseAutoTopUp(input.request, fields);
  const subscription = await db.subscription.findUnique({ where: { accountId: scope.accountId }, select: { status: true } });
  if (!allowsPacks(subscription?.status))
    throw invalidRequest("Auto top-up buys credit packs, which are sold on top of an active subscription; subscribe to a plan first.", [
      { field: fields.pack, message: "needs an active subscription" },
    ]);
  const price = await findCatalogPrice(stripeClient(), { kind: "pack", credits: parsed.packCredits });
  if (parsed.monthlyCapCents < price.unitAmount)
    throw invalidRequest(
      `${fields.monthlyCap} must be at least the ${parsed.packCredits}-credit pack's price (${(price.unitAmount / 100).toFixed(2)} ${price.currency.toUpperCase()}), or no top-up could ever run.`,
      [{ field: fields.monthlyCap, message: "must be at least the pack's price" }],
    );
  return { ...parsed, actor: input.actor, packAmountCents: price.unitAmount, currency: price.currency };
}

export async function saveAutoTopUp(tx: Tx, scope: OneAccount, setting: PreparedAutoTopUp): Promise<AutoTopUpView> {
  const { accountId } = scope;
  const existing = await tx.autoTopUp.findUnique({ where: { accountId }, select: { paymentMethodId: true } });
  const values = {
    threshold: millisToDecimalString(setting.thresholdMillis),
    packCredits: setting.packCredits,
    packAmountCents: setting.packAmountCents,
    currency: setting.currency,
    monthlyCapCents: setting.monthlyCapCents,
    enabled: Boolean(existing?.paymentMethodId),
    pausedAt: null,
    pauseReason: null,
    consecutiveFailures: 0,
    updatedById: isUser(setting.actor) ? setting.actor : null,
  };
  await tx.autoTopUp.upsert({ where: { accountId }, create: { accountId, ...values }, update: values });
  await recordActivity(tx, {
    accountId,
    actor: setting.actor,
    category: "billing",
    action: "auto_top_up.updated",
    description: `Auto top-up set: below ${millisToDecimalString(setting.thresholdMillis)} credits, buy the ${setting.packCredits}-credit pack, at most ${(setting.monthlyCapCents / 100).toFixed(2)} USD a month${values.enabled ? "" : " (on once a card is saved)"}`,
    metadata: {
      threshold: Number(millisToDecimalString(setting.thresholdMillis)),
      pack: setting.packCredits,
      monthly_cap: setting.monthlyCapCents / 100,
      enabled: values.enabled,
    },
  });
  return showAutoTopUp(tx, scope);
}

export async function turnOffAutoTopUp(tx: Tx, scope: OneAccount, actor: string): Promise<AutoTopUpView> {
  const changed = await tx.autoTopUp.updateMany({ where: { accountId: scope.accountId, enabled: true }, data: { enabled: false } });
  if (changed.count > 0)
    await recordActivity(tx, {
      accountId: scope.accountId,
      actor,
      category: "billing",
      action: "auto_top_up.disabled",
      description: "Auto top-up turned off",
      metadata: {},
    });
  return showAutoTopUp(tx, scope);
}

const isUser = (actor: string) => /^[0-9a-f-]{36}$/i.test(actor);
