import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { generationIdsAtOffset, generationTotal } from "@/server/generations/records/list-position";
import { listGenerations } from "@/server/generations/records/own-generations";
import { foldUsage } from "@/server/usage/rollups/fold-usage";
import { createTestAccount } from "@/tests/support/fixtures";

// /v1/content/list's total and deep offsets come from the usage counters: they must give exactly
// what count(*) and OFFSET over the rows give, folded or not, with ties on created_at and rows on
// hour and day boundaries.

let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
});
afterAll(async () => {
  await pool.end();
  await disconnectDb();
});

async function insertGenerations(accountId: string, times: string[]) {
  await pool.query(
    `INSERT INTO generation (id, account_id, region, media_kind, model_identifier, status, estimated_cost, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'us', 'image', 'm/one', 'succeeded', 0.010, t, now() FROM unnest($2::timestamptz[]) AS t`,
    [accountId, times],
  );
}

async function plainPage(accountId: string, offset: number, limit: number) {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id::text AS id FROM generation WHERE account_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3`,
    [accountId, offset, limit],
  );
  return rows.map((row) => row.id);
}

describe("content list positions from the counters", () => {
  it("equal count(*) and OFFSET at every depth, folded and not", { timeout: 60_000 }, async () => {
    const { accountId } = await createTestAccount();
    const start = Date.UTC(2026, 10, 1);
    // 2,400 rows over 10 days: every 6 minutes, plus 100 rows on exact hour and day boundaries,
    // two at a time (ties on created_at).
    const times = Array.from({ length: 2400 }, (_, index) => new Date(start + index * 360_000 + 17).toISOString());
    for (let index = 0; index < 50; index += 1) {
      const at = new Date(start + index * 3_600_000 * 4).toISOString();
      times.push(at, at);
    }
    await insertGenerations(accountId, times.slice(0, 1500));
    await foldUsage(db);
    await insertGenerations(accountId, times.slice(1500));

    const { rows } = await pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM generation WHERE account_id = $1`, [
      accountId,
    ]);
    expect(rows[0]!.count).toBe(2500);
    expect(await generationTotal(db, accountId)).toBe(2500);

    const offsets = [0, 1, 99, 100, 1001, 1234, 1499, 1500, 1501, 2000, 2399, 2450, 2499, 2500, 9000];
    for (const offset of offsets) {
      expect(await generationIdsAtOffset(db, accountId, { offset, limit: 37 }), `offset ${offset}`).toEqual(
        await plainPage(accountId, offset, 37),
      );
    }
    await foldUsage(db);
    for (const offset of offsets) {
      expect(await generationIdsAtOffset(db, accountId, { offset, limit: 100 }), `offset ${offset}`).toEqual(
        await plainPage(accountId, offset, 100),
      );
    }

    const listed = await listGenerations(db, accountId, { offset: 2450, limit: 100 });
    expect(listed.total).toBe(2500);
    expect(listed.generations.map((record) => record.generation_id)).toEqual(await plainPage(accountId, 2450, 100));

    await pool.query(`DELETE FROM generation WHERE id = ANY($1::uuid[])`, [await plainPage(accountId, 1800, 10)]);
    expect(await generationTotal(db, accountId)).toBe(2490);
    expect(await generationIdsAtOffset(db, accountId, { offset: 1795, limit: 20 })).toEqual(await plainPage(accountId, 1795, 20));
  });
});
