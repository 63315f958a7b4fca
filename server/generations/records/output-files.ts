import "server-only";
import type { Generation } from "../../base/generated/prisma/client";
import type { PlanName } from "../../plans/plan-limits";
import { outputExpiresAt } from "../../storage/output-expiry";
import { signFileUrl } from "../../storage/signed-url";

// Output links expire with the files: the plan's output retention after completion.

export function outputFileUrls(row: Pick<Generation, "completedAt" | "createdAt" | "outputKeys">, plan: PlanName): string[] {
  const expiresAt = outputExpiresAt(plan, row.completedAt ?? row.createdAt);
  if (expiresAt.getTime() <= Date.now()) return [];
  return row.outputKeys.map((key) => signFileUrl(key, { expiresAt }));
}
