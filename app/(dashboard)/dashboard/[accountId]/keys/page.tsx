import { KeysPage } from "@/components/keys/keys-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";
import { regionBaseUrls } from "@/server/edge/http/region";

export const metadata = { title: "API keys" };

// Prefetched here and hydrated, so the keys are in the first paint.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await Promise.all([
    prefetch(trpcServer.keys.list.queryOptions({ accountId })),
    prefetch(trpcServer.spend.keys.queryOptions({ accountId })),
  ]);
  return (
    <HydrateClient>
      <KeysPage apiBaseUrls={regionBaseUrls()} />
    </HydrateClient>
  );
}
