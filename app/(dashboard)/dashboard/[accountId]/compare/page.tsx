import { ComparePage } from "@/components/playground/compare-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Compare" };

// Prefetched here and hydrated: the catalog to choose from, who may run, and the user's comparisons.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await Promise.all([
    prefetch(trpcServer.models.list.queryOptions({ accountId })),
    prefetch(trpcServer.playground.access.queryOptions({ accountId })),
    prefetch(trpcServer.playground.history.queryOptions({ accountId, comparisons: true })),
  ]);
  return (
    <HydrateClient>
      <ComparePage />
    </HydrateClient>
  );
}
