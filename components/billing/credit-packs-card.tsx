"use client";

import { Info, Package } from "lucide-react";
import { Button, Card, CardBody, CardHeader } from "@/components/ui";
import { formatMoney } from "./billing-format";
import type { BillingCatalog, BillingOverview } from "./billing-types";
import { BillingNote } from "./billing-note";
import { packsOnSale, priceBlockedReason, purchaseBlockedReason } from "./purchase-rules";
import type { BillingRedirect } from "./use-billing-redirect";

// One-time credit packs, paid in Checkout and added once Stripe confirms the payment. Sold only
// on top of an active (or trialing) subscription.

const ON_TOP_OF_SUBSCRIPTION = "Packs are sold on top of an active subscription: choose a plan first.";

export function CreditPacksCard({
  overview,
  catalog,
  redirect,
}: {
  overview: BillingOverview;
  catalog: BillingCatalog;
  redirect: BillingRedirect;
}) {
  const blocked = purchaseBlockedReason(overview, catalog) ?? (packsOnSale(overview) ? null : ON_TOP_OF_SUBSCRIPTION);
  const explainOnSale = overview.configured && overview.canPurchase && !packsOnSale(overview);

  return (
    <Card role="region" aria-label="Credit packs">
      <CardHeader title="Credit packs" description="Top up between renewals; the credits are added once Stripe confirms the payment." />
      <CardBody className="space-y-4">
        {explainOnSale && (
          <BillingNote icon={Info} className="py-2.5">
            {ON_TOP_OF_SUBSCRIPTION}
          </BillingNote>
        )}
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {catalog.packs.map((pack) => {
            const reason = blocked ?? priceBlockedReason(pack.price, overview);
            const pending = redirect.buyPack.isPending && redirect.buyPack.variables?.credits === pack.credits;
            return (
              <li key={pack.credits} aria-label={`${pack.credits} credits`} className="flex flex-col rounded-lg border border-zinc-200 p-4">
                <Package className="size-4 text-zinc-400" aria-hidden />
                <p className="mt-3 text-lg font-semibold tracking-tight text-zinc-900 tabular-nums">{pack.credits.toLocaleString("en")}</p>
                <p className="text-xs text-zinc-500">credits</p>
                <p className="mt-2 text-sm font-medium text-zinc-700 tabular-nums">
                  {formatMoney(pack.price.amountCents, pack.price.currency)}
                </p>
                <div className="mt-3" title={reason ?? undefined}>
                  <Button
                    variant="secondary"
                    size="sm"
                    className="w-full"
                    disabled={reason !== null || redirect.leaving}
                    loading={pending}
                    title={reason ?? undefined}
                    aria-label={`Buy ${pack.credits} credits`}
                    onClick={() => redirect.buyPack.mutate({ accountId: overview.summary.account_id, credits: pack.credits })}
                  >
                    Buy
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </CardBody>
    </Card>
  );
}
