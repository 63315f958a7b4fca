import "server-only";
import { db, type Db } from "../db";
import { timedCheck } from "./timed-check";

export type DatabaseHealth = { service: "database"; healthy: boolean; latency_ms: number };

export async function checkDatabase(database: Db = db): Promise<DatabaseHealth> {
  const result = await timedCheck("database", async () => {
    const rows = await database.$queryRaw<Array<{ ok: number }>>`SELECT 1::int AS ok`;
    return rows[0]?.ok === 1;
  });
  return { service: "database", ...result };
}
