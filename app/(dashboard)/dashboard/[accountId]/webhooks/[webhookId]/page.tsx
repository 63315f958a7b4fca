import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";
import { EndpointDetailPage } from "@/components/webhooks/endpoint-detail-page";
import { DEAD_LETTERS_PAGE_SIZE, deadLettersInput, endpointDeliveriesInput } from "@/components/webhooks/log-inputs";

export const metadata = { title: "Webhook endpoint" };

// Prefetched here and hydrated, so the endpoint, its first page of deliveries and its dead letters
// are in the first paint. An unknown endpoint is left to the browser, which shows "not found".
export default async function Page({ params }: { params: Promise<{ accountId: string; webhookId: string }> }) {
  const { accountId, webhookId } = await params;
  await Promise.all([
    prefetch(trpcServer.webhooks.get.queryOptions({ accountId, webhookId })),
    prefetch(trpcServer.webhooks.deliveries.queryOptions(endpointDeliveriesInput(accountId, webhookId))),
    prefetch(
      trpcServer.webhooks.deadLetters.queryOptions(
        deadLettersInput(accountId, { webhookId, waitingOnly: false, pageSize: DEAD_LETTERS_PAGE_SIZE.endpoint }),
      ),
    ),
  ]);
  return (
    <HydrateClient>
      <EndpointDetailPage webhookId={webhookId} />
    </HydrateClient>
  );
}
