import { GenerationDetailPage } from "@/components/generations/generation-detail-page";
import { getServerQueryClient, HydrateClient, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Generation" };

export default async function Page({ params }: { params: Promise<{ accountId: string; generationId: string }> }) {
  const { accountId, generationId } = await params;
  await getServerQueryClient().prefetchQuery(trpcServer.generations.get.queryOptions({ accountId, generationId }));
  return (
    <HydrateClient>
      <GenerationDetailPage generationId={generationId} />
    </HydrateClient>
  );
}
