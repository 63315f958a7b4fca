import "server-only";
import type { Db } from "../../base/db";

/** Moves the changes into their hours and days (one fold at a time); the number of change rows moved. */
export async function foldUsage(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<{ moved: bigint }[]>`SELECT darkroom_fold_usage() AS moved`;
  return Number(row?.moved ?? 0n);
}
