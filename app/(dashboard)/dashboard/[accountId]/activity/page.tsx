import { ACTIVITY_PAGE_SIZE } from "@/components/activity/page-size";
import { ActivityPage } from "@/components/activity/activity-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Activity" };

// The first page of the feed is prefetched here and hydrated, so it is in the first paint.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await prefetch(trpcServer.activity.list.queryOptions({ accountId, limit: ACTIVITY_PAGE_SIZE }));
  return (
    <HydrateClient>
      <ActivityPage />
    </HydrateClient>
  );
}
