import { REQUEST_LOG_PAGE_SIZE } from "@/components/request-logs/page-size";
import { LogsPage } from "@/components/request-logs/logs-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Logs" };

// The newest page of the log (no filters) and the filters' choices are prefetched here and
// hydrated, so they are in the first paint; a change of filter fetches in the browser.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await Promise.all([
    prefetch(trpcServer.requestLogs.list.queryOptions({ accountId, limit: REQUEST_LOG_PAGE_SIZE })),
    prefetch(trpcServer.requestLogs.endpoints.queryOptions({ accountId })),
    prefetch(trpcServer.keys.list.queryOptions({ accountId })),
  ]);
  return (
    <HydrateClient>
      <LogsPage />
    </HydrateClient>
  );
}
