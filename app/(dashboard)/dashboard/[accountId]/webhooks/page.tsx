import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";
import { DEAD_LETTERS_PAGE_SIZE, deadLettersInput, recentDeliveriesInput } from "@/components/webhooks/log-inputs";
import { WebhooksPage } from "@/components/webhooks/webhooks-page";

export const metadata = { title: "Webhooks" };

// Prefetched here and hydrated, so the endpoints, the newest deliveries and the waiting dead
// letters are in the first paint.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await Promise.all([
    prefetch(trpcServer.webhooks.list.queryOptions({ accountId })),
    prefetch(trpcServer.webhooks.deliveries.queryOptions(recentDeliveriesInput(accountId))),
    prefetch(
      trpcServer.webhooks.deadLetters.queryOptions(
        deadLettersInput(accountId, { waitingOnly: true, pageSize: DEAD_LETTERS_PAGE_SIZE.account }),
      ),
    ),
  ]);
  return (
    <HydrateClient>
      <WebhooksPage />
    </HydrateClient>
  );
}
