import "server-only";
import type { InngestFunction } from "inngest";
import { alertDispatch } from "./alert-dispatch";
import { alertDispatchSweep } from "./alert-dispatch-sweep";
import { autoTopUp } from "./auto-top-up";
import { billingSweep } from "./billing-sweep";
import { customHostnameRemove } from "./custom-hostname-remove";
import { customHostnameSweep } from "./custom-hostname-sweep";
import { customHostnameVerify } from "./custom-hostname-verify";
import { enforceGenerationDeadline } from "./enforce-generation-deadline";
import { expireOutputFilesFunction } from "./expire-output-files";
import { manualPlanRenewals } from "./manual-plan-renewals";
import { pollProviderJob } from "./poll-provider-job";
import { rateLimitSweep } from "./rate-limit-sweep";
import { usageFold } from "./usage-fold";
import { retention } from "./retention";
import { runGeneration } from "./run-generation";
import { spendAlertEmails } from "./spend-alert-emails";
import { stripeEvent } from "./stripe-event";
import { sweepStaleGenerationsFunction } from "./sweep-stale-generations";
import { webhookDelivery } from "./webhook-delivery";
import { webhookDeliverySweep } from "./webhook-delivery-sweep";
import { webhookFanOut } from "./webhook-fan-out";

// Every function the app serves (app/api/inngest/route.ts) and so every function either executor
// runs. Add a new function here; nothing else registers it.

export const functions: InngestFunction.Any[] = [
  runGeneration,
  enforceGenerationDeadline,
  pollProviderJob,
  sweepStaleGenerationsFunction,
  expireOutputFilesFunction,
  webhookFanOut,
  webhookDelivery,
  retention,
  alertDispatch,
  alertDispatchSweep,
  rateLimitSweep,
  usageFold,
  webhookDeliverySweep,
  stripeEvent,
  billingSweep,
  autoTopUp,
  manualPlanRenewals,
  customHostnameVerify,
  customHostnameRemove,
  customHostnameSweep,
  spendAlertEmails,
];
