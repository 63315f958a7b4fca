import { StoragePage } from "@/components/storage/storage-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Storage" };

// Prefetched here and hydrated, so the bucket (or Darkroom's storage and the plan's retention) is
// in the first paint.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await Promise.all([
    prefetch(trpcServer.storage.destination.queryOptions({ accountId })),
    prefetch(trpcServer.account.get.queryOptions({ accountId })),
  ]);
  return (
    <HydrateClient>
      <StoragePage />
    </HydrateClient>
  );
}
