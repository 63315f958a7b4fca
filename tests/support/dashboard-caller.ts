import { appRouter } from "@/server/api/root";
import { createCallerFactory } from "@/server/api/trpc";

// The dashboard's routers called in-process: the very router /api/trpc mounts
// (app/api/trpc/[trpc]/route.ts), with a context naming the signed-in user instead of a session.

export const createCaller = createCallerFactory(appRouter);
