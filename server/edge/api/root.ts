import "server-only";
import { accountRouter } from "./routers/account";
import { activityRouter } from "./routers/activity";
import { alertsRouter } from "./routers/alerts";
import { billingRouter } from "./routers/billing";
import { bugReportsRouter } from "./routers/bug-reports";
import { generationsRouter } from "./routers/generations";
import { hostnamesRouter } from "./routers/hostnames";
import { keysRouter } from "./routers/keys";
import { modelsRouter } from "./routers/models";
import { notificationsRouter } from "./routers/notifications";
import { playgroundRouter } from "./routers/playground";
import { requestLogsRouter } from "./routers/request-logs";
import { settingsRouter } from "./routers/settings";
import { storageRouter } from "./routers/storage";
import { spendRouter } from "./routers/spend";
import { teamRouter } from "./routers/team";
import { usageRouter } from "./routers/usage";
import { webhooksRouter } from "./routers/webhooks";
import { createTRPCRouter } from "./trpc";

// Every dashboard router, mounted at /api/trpc.
export const appRouter = createTRPCRouter({
  account: accountRouter,
  activity: activityRouter,
  alerts: alertsRouter,
  billing: billingRouter,
  bugReports: bugReportsRouter,
  generations: generationsRouter,
  hostnames: hostnamesRouter,
  keys: keysRouter,
  models: modelsRouter,
  notifications: notificationsRouter,
  playground: playgroundRouter,
  requestLogs: requestLogsRouter,
  settings: settingsRouter,
  storage: storageRouter,
  spend: spendRouter,
  team: teamRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
