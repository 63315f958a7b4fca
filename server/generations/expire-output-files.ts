import "server-only";
import { db } from "../base/db";
import { planLimits, planNames } from "../plans/plan-limits";
import { getStorage } from "../storage/get-storage";
import type { OutputStorage } from "../storage/storage";
import { locationOf } from "../storage/destinations/output-placement";

// Output files live for the plan's output retention after completion (1 hour on Free
// up to 7 days on Enterprise). Past it their links are already dead; this deletes the bytes.
// Files in the account's own bucket are never deleted here: they and their links stay.
// The record stays (its own retention is longer); its key list is emptied with the files, which
// also marks it done for the next pass.

const BATCH = 200;

export async function expireOutputFiles(now = new Date()) {
  const storage = getStorage();
  let filesDeleted = 0;
  const generations: string[] = [];
  for (const plan of planNames) {
    const cutoff = new Date(now.getTime() - planLimits[plan].retention.outputFiles * 1000);
    const rows = await db.generation.findMany({
      where: {
        status: "succeeded",
        outputKeys: { isEmpty: false },
        // Some file of ours left (a record whose files are all in the account's bucket is done).
        OR: [{ outputLocations: { isEmpty: true } }, { outputLocations: { has: "darkroom" } }],
        completedAt: { lt: cutoff },
        account: { plan },
      },
      select: { id: true, outputKeys: true, outputLocations: true },
      orderBy: { completedAt: "asc" },
      take: BATCH,
    });
    for (const row of rows) {
      filesDeleted += await expireOwnFiles(storage, row);
      generations.push(row.id);
    }
  }
  // Generations whose create asked for a shorter retention (generation_output_retention).
  const early = await db.$queryRaw<Array<{ id: string }>>`
    SELECT id::text AS id FROM generation
     WHERE status = 'succeeded' AND output_retention_seconds IS NOT NULL AND cardinality(output_keys) > 0
       AND (cardinality(output_locations) = 0 OR 'darkroom' = ANY(output_locations))
       AND completed_at + output_retention_seconds * interval '1 second' < ${now}
     ORDER BY completed_at
     LIMIT ${BATCH}`;
  if (early.length > 0) {
    const rows = await db.generation.findMany({
      where: { id: { in: early.map((row) => row.id) } },
      select: { id: true, outputKeys: true, outputLocations: true },
    });
    for (const row of rows) {
      filesDeleted += await expireOwnFiles(storage, row);
      generations.push(row.id);
    }
  }
  return { generations, filesDeleted };
}

/** Deletes a generation's files of ours; files in the account's own bucket are the account's to keep (their keys and links stay). */
async function expireOwnFiles(
  storage: OutputStorage,
  row: { id: string; outputKeys: string[]; outputLocations: string[] },
): Promise<number> {
  let deleted = 0;
  const kept = row.outputKeys.flatMap((key, index) => (locationOf(row, index) === "customer" ? [key] : []));
  for (const [index, key] of row.outputKeys.entries())
    if (locationOf(row, index) === "darkroom" && (await storage.delete(key).catch(() => false))) deleted += 1;
  await db.generation.update({ where: { id: row.id }, data: { outputKeys: kept, outputLocations: kept.map(() => "customer") } });
  return deleted;
}
