import { listInput, readModelFilters } from "@/components/models/model-filters";
import { ModelsPage } from "@/components/models/models-page";
import { prefetch, HydrateClient, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Models" };

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ accountId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { accountId } = await params;
  await prefetch(trpcServer.models.list.queryOptions(listInput(accountId, readModelFilters(await searchParams))));
  return (
    <HydrateClient>
      <ModelsPage />
    </HydrateClient>
  );
}
