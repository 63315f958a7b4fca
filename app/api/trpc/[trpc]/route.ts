import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { admitDashboardCall, bodilessStandIn } from "@/server/edge/api/admit-dashboard-call";
import { createTRPCContext } from "@/server/edge/api/context";
import { appRouter } from "@/server/edge/api/root";

async function handler(req: Request) {
  const call = await admitDashboardCall(req);
  if ("admitted" in call)
    return fetchRequestHandler({ endpoint: "/api/trpc", req: call.admitted, router: appRouter, createContext: createTRPCContext });
  // Refused: tRPC itself answers, so the error has the shape its clients read.
  const refused = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: bodilessStandIn(req),
    router: appRouter,
    createContext: () => {
      throw call.refused;
    },
  });
  // No `Connection: close`: closing a socket whose body is still arriving resets it, and a reset
  // can reach a busy client before it read this answer. Node discards the rest of the body
  // unread (nothing buffers it) while the client stays.
  return refused;
}

export { handler as GET, handler as POST };
