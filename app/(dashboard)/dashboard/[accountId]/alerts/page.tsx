import { AlertsPage } from "@/components/alerts/alerts-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Alerts" };

// Prefetched here and hydrated, so the thresholds and the balance are in the first paint.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await prefetch(trpcServer.alerts.get.queryOptions({ accountId }));
  return (
    <HydrateClient>
      <AlertsPage />
    </HydrateClient>
  );
}
