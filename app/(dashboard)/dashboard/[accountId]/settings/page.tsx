import { SettingsPage } from "@/components/settings/settings-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Settings" };

// Prefetched here and hydrated, so the forms are filled in on the first paint.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await prefetch(trpcServer.settings.get.queryOptions({ accountId }));
  return (
    <HydrateClient>
      <SettingsPage />
    </HydrateClient>
  );
}
