import "server-only";
import { accountRouter } from "./routers/account";
import { alertsRouter } from "./routers/alerts";
import { generationsRouter } from "./routers/generations";
import { notificationsRouter } from "./routers/notifications";
import { usageRouter } from "./routers/usage";
import { webhooksRouter } from "./routers/webhooks";
import { createCallerFactory, createTRPCRouter } from "./trpc";

// Every dashboard router, mounted at /api/trpc.
export const appRouter = createTRPCRouter({
  account: accountRouter,
  alerts: alertsRouter,
  generations: generationsRouter,
  notifications: notificationsRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
