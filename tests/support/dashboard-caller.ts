import { appRouter } from "@/server/edge/api/root";
import { createCallerFactory } from "@/server/edge/api/trpc";

// The dashboard's routers called in-process: the very router /api/trpc mounts
// (app/api/trpc/[trpc]/route.ts), with a context naming the signed-in user instead of a session.

export const createCaller = createCallerFactory(appRouter);
