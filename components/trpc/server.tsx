import "server-only";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { createTRPCOptionsProxy, type TRPCQueryOptions } from "@trpc/tanstack-react-query";
import { cache } from "react";
import superjson from "superjson";
import { createTRPCContext } from "@/server/edge/api/context";
import { appRouter } from "@/server/edge/api/root";

// Server data on first paint (create-t3-app's trpc/server.ts): a page prefetches its queries by
// calling the router in-process, then <HydrateClient> hands them to the browser's QueryClient,
// which does not fetch them again. One QueryClient per request.

export const getServerQueryClient = cache(
  () => new QueryClient({ defaultOptions: { queries: { staleTime: 10_000 }, dehydrate: { serializeData: superjson.serialize } } }),
);

export const trpcServer = createTRPCOptionsProxy({ router: appRouter, ctx: createTRPCContext, queryClient: getServerQueryClient });

/** Fetches one query into the request's cache; a failure is left out and the browser fetches it again (and shows its error). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any procedure's options, as in create-t3-app
export function prefetch<T extends ReturnType<TRPCQueryOptions<any>>>(queryOptions: T): Promise<void> {
  return getServerQueryClient().prefetchQuery(queryOptions);
}

export function HydrateClient({ children }: { children: React.ReactNode }) {
  return <HydrationBoundary state={dehydrate(getServerQueryClient())}>{children}</HydrationBoundary>;
}
