import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/server/base/generated/prisma/client";
import { recreateDatabase } from "@/server/start/database";
import { migrationsDir } from "@/server/start/migrations";

// A database of a suite's own on the test run's server, for what must not touch the shared one
// (a migration replayed, a trigger on a table every suite writes). Dropped by `drop()`.

export type ScratchDatabase = { url: string; pool: pg.Pool; db: PrismaClient; drop: () => Promise<void> };

export async function scratchDatabase(label: string, serverUrl = process.env.DATABASE_URL!): Promise<ScratchDatabase> {
  const name = `darkroom_${label}_${randomUUID().slice(0, 8)}`;
  const url = await recreateDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 2 }) });
  return {
    url,
    pool,
    db,
    drop: async () => {
      await db.$disconnect();
      await pool.end();
      const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: "/postgres" }).toString() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** The migrations folder's names, in the order they apply. */
export function migrationNames(): string[] {
  return fs
    .readdirSync(migrationsDir)
    .filter((entry) => fs.statSync(path.join(migrationsDir, entry)).isDirectory())
    .sort();
}

/** Runs migration files as the engine does (each whole, as one script), without its bookkeeping. */
export async function runMigrationFiles(pool: pg.Pool, names: string[]) {
  for (const name of names) await pool.query(fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8"));
}
