import "server-only";
import { recordActivity } from "../activity/record-activity";
import { db, type Tx } from "../db";
import type { Generation } from "../generated/prisma/client";
import { getStorage } from "../storage/get-storage";
import { inTransaction } from "../transaction";
import { requestCancel } from "./cancel-generation";
import { findOwnGeneration } from "./records/own-generations";

// Deleting a generation: its stored output files go, and the record is marked removed
// (`generation_removed: "true"`). The record itself stays until its retention ends, so the ledger
// keeps its context. An in-flight generation is canceled first.

/** Deletes the stored output files; returns how many there were. */
export async function deleteOutputFiles(row: Pick<Generation, "outputKeys">): Promise<number> {
  const storage = getStorage();
  let deleted = 0;
  for (const key of row.outputKeys) if (await storage.delete(key)) deleted += 1;
  return deleted;
}

export async function markGenerationRemoved(tx: Tx, row: Pick<Generation, "id" | "accountId" | "removedAt">, filesDeleted: number, actor = "system") {
  await tx.generation.update({ where: { id: row.id }, data: { removedAt: row.removedAt ?? new Date() } });
  await recordActivity(tx, {
    accountId: row.accountId,
    actor,
    category: "generation",
    action: "generation.deleted",
    description: `Generation ${row.id} and ${filesDeleted} output files deleted`,
    metadata: { generation_id: row.id, files_deleted: filesDeleted },
  });
  return { generation_id: row.id, files_deleted: filesDeleted };
}

/** Delete as a client asks for it (API route or dashboard): cancel if in flight, drop the files, mark the record. */
export async function deleteGeneration(accountId: string, generationId: string, actor = "system") {
  let row = await findOwnGeneration(db, accountId, generationId);
  if (row.status === "pending" || row.status === "processing") {
    // A run that finished meanwhile is simply deleted as it is.
    await requestCancel(accountId, generationId, actor).catch(() => undefined);
    row = await findOwnGeneration(db, accountId, generationId);
  }
  const filesDeleted = await deleteOutputFiles(row);
  return inTransaction((tx) => markGenerationRemoved(tx, row, filesDeleted, actor));
}
