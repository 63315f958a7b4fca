import { CustomDomainPage } from "@/components/hostnames/custom-domain-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Custom domain" };

// Prefetched here and hydrated, so the hostname and its verification (or the plan notice) are in
// the first paint; the page then refreshes itself while a check or a removal is under way.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await prefetch(trpcServer.hostnames.get.queryOptions({ accountId }));
  return (
    <HydrateClient>
      <CustomDomainPage />
    </HydrateClient>
  );
}
