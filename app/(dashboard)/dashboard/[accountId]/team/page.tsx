import { TeamPage } from "@/components/team/team-page";
import { HydrateClient, prefetch, trpcServer } from "@/components/trpc/server";

export const metadata = { title: "Team" };

// Prefetched here and hydrated, so members and invitations are in the first paint.
export default async function Page({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  await prefetch(trpcServer.team.list.queryOptions({ accountId }));
  return (
    <HydrateClient>
      <TeamPage />
    </HydrateClient>
  );
}
