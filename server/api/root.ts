import "server-only";
import { accountRouter } from "./routers/account";
import { activityRouter } from "./routers/activity";
import { alertsRouter } from "./routers/alerts";
import { billingRouter } from "./routers/billing";
import { generationsRouter } from "./routers/generations";
import { keysRouter } from "./routers/keys";
import { notificationsRouter } from "./routers/notifications";
import { requestLogsRouter } from "./routers/request-logs";
import { teamRouter } from "./routers/team";
import { usageRouter } from "./routers/usage";
import { webhooksRouter } from "./routers/webhooks";
import { createCallerFactory, createTRPCRouter } from "./trpc";

// Every dashboard router, mounted at /api/trpc.
export const appRouter = createTRPCRouter({
  account: accountRouter,
  activity: activityRouter,
  alerts: alertsRouter,
  billing: billingRouter,
  generations: generationsRouter,
  keys: keysRouter,
  notifications: notificationsRouter,
  requestLogs: requestLogsRouter,
  team: teamRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
