import { getServerQueryClient, HydrateClient, trpcServer } from "@/components/trpc/server";
import { UsagePage } from "@/components/usage/usage-page";
import { readUsageRange } from "@/components/usage/usage-range";

export const metadata = { title: "Usage" };

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ accountId: string }>;
  searchParams: Promise<{ days?: string | string[] }>;
}) {
  const { accountId } = await params;
  const days = readUsageRange((await searchParams).days);
  await getServerQueryClient().prefetchQuery(trpcServer.usage.summary.queryOptions({ accountId, days }));
  return (
    <HydrateClient>
      <UsagePage />
    </HydrateClient>
  );
}
