import "server-only";
import { planLimits, type PlanName } from "../plans/plan-limits";
import { assertStorageKey } from "./storage";

// Output files are kept for the plan's "Output files" retention after completion;
// the expiry cron deletes them then, and their links expire at the same moment.

export function outputExpiresAt(plan: PlanName, completedAt: Date): Date {
  return new Date(completedAt.getTime() + planLimits[plan].retention.outputFiles * 1000);
}

/** outputs/<account>/<generation>/<index>.<extension>, e.g. outputs/acc_1/gen_2/0.png. */
export function outputKey(accountId: string, generationId: string, index: number, extension: string): string {
  for (const id of [accountId, generationId])
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new RangeError(`Invalid id in an output key: ${JSON.stringify(id)}`);
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`Invalid output index ${index}`);
  const ext = extension.replace(/^\./, "").toLowerCase();
  if (!/^[a-z0-9]{1,10}$/.test(ext)) throw new RangeError(`Invalid output extension ${JSON.stringify(extension)}`);
  const key = `outputs/${accountId}/${generationId}/${index}.${ext}`;
  assertStorageKey(key);
  return key;
}
