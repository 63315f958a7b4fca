import "server-only";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { cache } from "react";
import { createTRPCContext } from "@/server/api/context";
import { appRouter } from "@/server/api/root";

// Server data on first paint: a page prefetches its main queries through the router itself (the
// signed-in user's context, no HTTP hop) and HydrateClient hands them to the browser's cache, so
// the client components render the data at once and only refetch when it goes stale.

/** One QueryClient per server request. */
export const getServerQueryClient = cache(() => new QueryClient({ defaultOptions: { queries: { staleTime: 10_000 } } }));

export const serverTRPC = createTRPCOptionsProxy({ router: appRouter, ctx: createTRPCContext, queryClient: getServerQueryClient });

export function HydrateClient({ children }: { children: React.ReactNode }) {
  return <HydrationBoundary state={dehydrate(getServerQueryClient())}>{children}</HydrationBoundary>;
}
