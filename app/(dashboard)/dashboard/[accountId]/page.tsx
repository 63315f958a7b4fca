import { OverviewPage } from "@/components/overview/overview-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Overview" };

// Prefetched here and hydrated, so the balance, plan, chart and recent activity are in the first paint.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await Promise.all([
    prefetch(trpcServer.account.get.queryOptions({ accountId })),
    prefetch(trpcServer.account.dailyActivity.queryOptions({ accountId })),
    prefetch(trpcServer.account.recentActivity.queryOptions({ accountId })),
  ]);
  return (
    <HydrateClient>
      <OverviewPage />
    </HydrateClient>
  );
}
