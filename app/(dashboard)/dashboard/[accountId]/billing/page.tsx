import { BillingPage } from "@/components/billing/billing-page";
import { checkoutReturnOf } from "@/components/billing/checkout-return";
import { LEDGER_PAGE_SIZE, ORDERS_PAGE_SIZE } from "@/components/billing/page-sizes";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Billing" };

// Prefetched here and hydrated, so the plan, prices, auto top-up, orders and ledger are in the first paint.
export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ accountId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { accountId } = await params;
  await Promise.all([
    prefetch(trpcServer.billing.overview.queryOptions({ accountId })),
    prefetch(trpcServer.spend.account.queryOptions({ accountId })),
    prefetch(trpcServer.billing.catalog.queryOptions({ accountId })),
    prefetch(trpcServer.billing.autoTopUp.queryOptions({ accountId })),
    prefetch(trpcServer.billing.orders.queryOptions({ accountId, limit: ORDERS_PAGE_SIZE })),
    prefetch(trpcServer.billing.ledger.queryOptions({ accountId, limit: LEDGER_PAGE_SIZE })),
  ]);
  return (
    <HydrateClient>
      <BillingPage returned={checkoutReturnOf(await searchParams)} />
    </HydrateClient>
  );
}
