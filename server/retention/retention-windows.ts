import "server-only";
import { planLimits, type PlanName } from "../plans/plan-limits";

// The spec's "Retention by plan" table lives in server/plans/plan-limits.ts (one table for every
// per-plan number); this turns a plan's windows into the moments before which data goes.
// "Older than the window" is strict: a row exactly one window old is kept.

export type RetentionCutoffs = {
  generations: Date;
  requestLogs: Date;
  webhookLogs: Date;
  activity: Date;
  ledger: Date;
};

export function retentionCutoffs(plan: PlanName, now: Date): RetentionCutoffs {
  const windows = planLimits[plan].retention;
  const before = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  return {
    generations: before(windows.generations),
    requestLogs: before(windows.requestLogs),
    webhookLogs: before(windows.webhookLogs),
    activity: before(windows.activity),
    ledger: before(windows.ledger),
  };
}
