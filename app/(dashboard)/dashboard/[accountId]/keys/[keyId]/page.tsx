import { KeyDetailPage } from "@/components/keys/key-detail-page";
import { REQUEST_LOG_PAGE_SIZE } from "@/components/request-logs/page-size";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";
import { regionBaseUrls } from "@/server/edge/http/region";

export const metadata = { title: "API key" };

// Prefetched here and hydrated, so the key and the first page of its request log are in the
// first paint. An unknown key is left to the browser, which shows "not found".
export default async function Page({ params }: { params: Promise<{ accountId: string; keyId: string }> }) {
  const { accountId, keyId } = await params;
  await Promise.all([
    prefetch(trpcServer.keys.get.queryOptions({ accountId, keyId })),
    prefetch(trpcServer.spend.key.queryOptions({ accountId, keyId })),
    prefetch(trpcServer.requestLogs.list.queryOptions({ accountId, keyId, limit: REQUEST_LOG_PAGE_SIZE })),
    prefetch(trpcServer.requestLogs.endpoints.queryOptions({ accountId })),
  ]);
  return (
    <HydrateClient>
      <KeyDetailPage keyId={keyId} apiBaseUrls={regionBaseUrls()} />
    </HydrateClient>
  );
}
