import "server-only";
import { db } from "../base/db";
import { planLimits, planNames } from "../plans/plan-limits";
import { getStorage } from "../storage/get-storage";
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
      // Files in the account's own bucket are the account's to keep: their keys (and links) stay.
      const kept = row.outputKeys.flatMap((key, index) => (locationOf(row, index) === "customer" ? [key] : []));
      for (const [index, key] of row.outputKeys.entries())
        if (locationOf(row, index) === "darkroom" && (await storage.delete(key).catch(() => false))) filesDeleted += 1;
      await db.generation.update({
        where: { id: row.id },
        data: { outputKeys: kept, outputLocations: kept.map(() => "customer") },
      });
      generations.push(row.id);
    }
  }
  return { generations, filesDeleted };
}
