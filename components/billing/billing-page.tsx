"use client";

import { useQuery } from "@tanstack/react-query";
import { Lock } from "lucide-react";
import { useAccount } from "@/components/dashboard/account-context";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Card, CardBody, PageHeader, Skeleton } from "@/components/ui";
import { AutoTopUpCard } from "./auto-top-up-card";
import type { CheckoutReturn } from "./billing-types";
import { BillingNote } from "./billing-note";
import { CheckoutReturnNote } from "./checkout-return-note";
import { CreditPacksCard } from "./credit-packs-card";
import { CurrentPlanCard } from "./current-plan-card";
import { LedgerCard } from "./ledger-card";
import { NotConfiguredCard } from "./not-configured-card";
import { OrdersCard } from "./orders-card";
import { PlansSection } from "./plans-section";
import { AccountSpendCard } from "@/components/spend/account-spend-card";
import { useBillingRedirect } from "./use-billing-redirect";
import { usePaymentWait } from "./use-payment-wait";

// The billing page: the current plan and balance, plans and credit packs (bought in Stripe
// Checkout by the primary owner), auto top-up, the orders and the credit ledger. The server
// prefetches the first screen (app/(dashboard)/dashboard/[accountId]/billing/page.tsx).

export function BillingPage({ returned }: { returned: CheckoutReturn }) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const redirect = useBillingRedirect();
  const overviewOptions = trpc.billing.overview.queryOptions({ accountId });
  const overview = useQuery(overviewOptions);
  const catalog = useQuery(trpc.billing.catalog.queryOptions({ accountId }));
  const autoTopUpOptions = trpc.billing.autoTopUp.queryOptions({ accountId });
  const autoTopUp = useQuery(autoTopUpOptions);
  const wait = usePaymentWait(returned, overview.data, autoTopUp.data);
  // Second observers of the same queries that poll only while a payment (or a saved card) is being
  // applied: the overview for a plan or a pack, the auto top-up setting for a card.
  const waitingFor = wait === "waiting" ? (returned?.kind === "card" ? "card" : "payment") : null;
  useQuery({ ...overviewOptions, enabled: waitingFor === "payment", refetchInterval: waitingFor === "payment" ? 2000 : false });
  useQuery({ ...autoTopUpOptions, enabled: waitingFor === "card", refetchInterval: waitingFor === "card" ? 2000 : false });

  return (
    <div className="space-y-8">
      <PageHeader title="Billing" description="Your plan, credit packs, orders and every credit that moved in this account." />
      <div className="space-y-6">
        {overview.data && !overview.data.configured && <NotConfiguredCard accountId={accountId} />}
        {overview.data && !overview.data.canPurchase && overview.data.readOnlyReason && (
          <BillingNote icon={Lock}>{overview.data.readOnlyReason}</BillingNote>
        )}
        {returned && <CheckoutReturnNote returned={returned} wait={wait} overview={overview.data} autoTopUp={autoTopUp.data} />}

        {overview.isPending ? (
          <Card>
            <CardBody className="space-y-3">
              <Skeleton className="h-3 w-24" />
              <Skeleton className="h-7 w-40" />
              <Skeleton className="h-4 w-72" />
            </CardBody>
          </Card>
        ) : overview.isError ? (
          <Card>
            <CardBody className="flex flex-wrap items-center justify-between gap-4">
              <p className="text-sm text-red-600">Billing could not be loaded: {errorMessage(overview.error)}</p>
              <Button variant="secondary" size="sm" onClick={() => void overview.refetch()}>
                Try again
              </Button>
            </CardBody>
          </Card>
        ) : (
          <CurrentPlanCard overview={overview.data} redirect={redirect} refreshing={waitingFor === "payment"} />
        )}

        {overview.data && catalog.data ? (
          <>
            <PlansSection overview={overview.data} catalog={catalog.data} redirect={redirect} />
            <CreditPacksCard overview={overview.data} catalog={catalog.data} redirect={redirect} />
            <AutoTopUpCard overview={overview.data} catalog={catalog.data} />
          </>
        ) : catalog.isError ? (
          <Card>
            <CardBody className="flex flex-wrap items-center justify-between gap-4">
              <p className="text-sm text-red-600">Plans and prices could not be loaded: {errorMessage(catalog.error)}</p>
              <Button variant="secondary" size="sm" onClick={() => void catalog.refetch()}>
                Try again
              </Button>
            </CardBody>
          </Card>
        ) : overview.isError ? null : (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-hidden>
            {Array.from({ length: 4 }, (_, index) => (
              <Skeleton key={index} className="h-72 w-full rounded-lg" />
            ))}
          </div>
        )}

        <AccountSpendCard />
        <OrdersCard accountId={accountId} live={waitingFor === "payment"} />
        <LedgerCard accountId={accountId} live={waitingFor === "payment"} />
      </div>
    </div>
  );
}
