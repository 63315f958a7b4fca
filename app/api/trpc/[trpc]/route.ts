import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { admitDashboardCall, bodilessStandIn } from "@/server/api/admit-dashboard-call";
import { createTRPCContext } from "@/server/api/context";
import { appRouter } from "@/server/api/root";

async function handler(req: Request) {
  const call = await admitDashboardCall(req);
  if ("admitted" in call) return fetchRequestHandler({ endpoint: "/api/trpc", req: call.admitted, router: appRouter, createContext: createTRPCContext });
  // Refused: tRPC itself answers, so the error has the shape its clients read.
  const refused = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: bodilessStandIn(req),
    router: appRouter,
    createContext: () => {
      throw call.refused;
    },
  });
  // What the client has not sent yet of a refused body is not worth reading.
  refused.headers.set("connection", "close");
  return refused;
}

export { handler as GET, handler as POST };
