import { ModelDetailPage } from "@/components/models/model-detail-page";
import { prefetch, HydrateClient, trpcServer } from "@/components/trpc/server";
import { env } from "@/server/base/env";
import { regionBaseUrls } from "@/server/edge/http/region";

export const metadata = { title: "Model" };

export default async function Page({ params }: { params: Promise<{ accountId: string; vendor: string; model: string }> }) {
  const { accountId, vendor, model } = await params;
  const identifier = `${decoded(vendor)}/${decoded(model)}`;
  await Promise.all([
    prefetch(trpcServer.models.get.queryOptions({ accountId, identifier })),
    prefetch(trpcServer.playground.access.queryOptions({ accountId })),
    prefetch(trpcServer.playground.history.queryOptions({ accountId, comparisons: false })),
  ]);
  return (
    <HydrateClient>
      <ModelDetailPage identifier={identifier} apiBaseUrl={regionBaseUrls()[env().REGION]} />
    </HydrateClient>
  );
}

/** A malformed escape is left as it is: the router answers it as an unknown model. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
