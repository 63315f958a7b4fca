import "server-only";
import { db } from "../base/db";
import { planLimits, planNames } from "../plans/plan-limits";
import { getStorage } from "../storage/get-storage";

// Output files live for the plan's output retention after completion (1 hour on Free
// up to 7 days on Enterprise). Past it their links are already dead; this deletes the bytes.
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
      where: { status: "succeeded", outputKeys: { isEmpty: false }, completedAt: { lt: cutoff }, account: { plan } },
      select: { id: true, outputKeys: true },
      orderBy: { completedAt: "asc" },
      take: BATCH,
    });
    for (const row of rows) {
      for (const key of row.outputKeys) if (await storage.delete(key).catch(() => false)) filesDeleted += 1;
      await db.generation.update({ where: { id: row.id }, data: { outputKeys: [] } });
      generations.push(row.id);
    }
  }
  return { generations, filesDeleted };
}
