import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import type { OneAccount } from "../base/account-scope";
import type { Generation } from "../base/generated/prisma/client";
import { deletePlacedOutputs } from "../storage/destinations/output-placement";
import { withSavepoint } from "../base/transaction";
import { requestCancel } from "./cancel-generation";
import { findOwnGeneration } from "./records/own-generations";

// Deleting a generation: its stored output files go, and the record is marked removed
// (`generation_removed: "true"`). The record itself stays until its retention ends, so the ledger
// keeps its context. An in-flight generation is canceled first.

/** Deletes the output files, ours and those in the account's own bucket; returns how many there were. */
export async function deleteOutputFiles(
  row: Pick<Generation, "id" | "accountId" | "outputKeys" | "outputLocations" | "outputDestination">,
): Promise<number> {
  return deletePlacedOutputs(row);
}

/**
 * Delete's first part (API route or dashboard), in the caller's transaction: an in-flight
 * generation is canceled first (the provider is told once it committed); answers the row as it
 * then stands. The caller then deletes its files (deleteOutputFiles) outside any transaction and
 * marks the record (markGenerationRemoved) in a second one.
 */
export async function cancelBeforeDelete(tx: Tx, scope: OneAccount, input: { generationId: string; actor?: string }) {
  const row = await findOwnGeneration(tx, scope.accountId, input.generationId);
  if (row.status !== "pending" && row.status !== "processing") return row;
  // A run that finished meanwhile is simply deleted as it is.
  await withSavepoint(tx, "cancel_before_delete", () => requestCancel(tx, scope, input)).catch(() => undefined);
  return findOwnGeneration(tx, scope.accountId, input.generationId);
}

export async function markGenerationRemoved(
  tx: Tx,
  scope: OneAccount,
  input: { row: Pick<Generation, "id" | "removedAt">; filesDeleted: number; actor?: string },
) {
  const { row, filesDeleted, actor = "system" } = input;
  await tx.generation.update({ where: { id: row.id }, data: { removedAt: row.removedAt ?? new Date() } });
  await recordActivity(tx, {
    accountId: scope.accountId,
    actor,
    category: "generation",
    action: "generation.deleted",
    description: `Generation ${row.id} and ${filesDeleted} output files deleted`,
    metadata: { generation_id: row.id, files_deleted: filesDeleted },
  });
  return { generation_id: row.id, files_deleted: filesDeleted };
}
