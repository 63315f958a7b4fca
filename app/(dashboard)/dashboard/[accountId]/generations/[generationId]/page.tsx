import { GenerationDetailPage } from "@/components/generations/generation-detail-page";
import { getServerQueryClient, HydrateClient, serverTRPC } from "@/components/trpc/server";

export const metadata = { title: "Generation" };

export default async function Page({ params }: { params: Promise<{ accountId: string; generationId: string }> }) {
  const { accountId, generationId } = await params;
  await getServerQueryClient().prefetchQuery(serverTRPC.generations.get.queryOptions({ accountId, generationId }));
  return (
    <HydrateClient>
      <GenerationDetailPage generationId={generationId} />
    </HydrateClient>
  );
}
