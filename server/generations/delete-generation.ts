import { db } from "../db";
import { getStorage } from "../storage/get-storage";
import { cancelGeneration } from "./cancel-generation";
import { findOwnGeneration } from "./read-generations";
import { recordActivity } from "../activity/record-activity";

// DELETE /v1/content/{id}: removes the stored output files and marks the record removed
// (`generation_removed: "true"`); an in-flight generation is canceled (and refunded) first.
// The record itself stays until its retention ends, so the ledger keeps its context.

export async function deleteGeneration(accountId: string, generationId: string, actor = "system") {
  let row = await findOwnGeneration(accountId, generationId);
  if (row.status === "pending" || row.status === "processing") {
    await cancelGeneration(accountId, generationId, actor).catch(() => undefined);
    row = await findOwnGeneration(accountId, generationId);
  }
  const storage = getStorage();
  let filesDeleted = 0;
  for (const key of row.outputKeys) if (await storage.delete(key)) filesDeleted += 1;
  await db.$transaction(async (tx) => {
    await tx.generation.update({ where: { id: generationId }, data: { removedAt: row.removedAt ?? new Date() } });
    await recordActivity(tx, { accountId, actor, category: "generation", action: "generation.deleted", description: `Generation ${generationId} and ${filesDeleted} output files deleted`, metadata: { generation_id: generationId, files_deleted: filesDeleted } });
  });
  return { generation_id: generationId, files_deleted: filesDeleted };
}
