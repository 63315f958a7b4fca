import { GenerationsPage } from "@/components/generations/generations-page";
import { listInput, readGenerationFilters } from "@/components/generations/generation-filters";
import { getServerQueryClient, HydrateClient, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Generations" };

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ accountId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { accountId } = await params;
  const filters = readGenerationFilters(await searchParams);
  const queryClient = getServerQueryClient();
  await Promise.all([
    queryClient.prefetchInfiniteQuery(
      trpcServer.generations.list.infiniteQueryOptions(listInput(accountId, filters), { getNextPageParam: (page) => page.nextCursor }),
    ),
    queryClient.prefetchQuery(trpcServer.generations.models.queryOptions({ accountId })),
  ]);
  return (
    <HydrateClient>
      <GenerationsPage />
    </HydrateClient>
  );
}
