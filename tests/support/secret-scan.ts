import fs from "node:fs";
import { db } from "@/server/base/db";
import { distinctiveIpPatterns } from "@/tests/support/hostile-requests";

// What must never be kept in plain text: API key values (only their SHA-256 is stored), webhook
// signing secrets (sealed in their column), raw client addresses (hashed in the request log).
// The isolation drill looks for all three in every text column of the database and in the app's log.

const API_KEY = "dkr_[0-9A-Za-z]{40}";
const WEBHOOK_SECRET = "whsec_[A-Za-z0-9_-]{43}";

/** One pattern per kind, as PostgreSQL and JavaScript regular expressions (the same syntax here). */
export const plaintextPatterns: Record<string, string> = {
  "raw API key": API_KEY,
  "webhook secret": WEBHOOK_SECRET,
  "raw client IP": distinctiveIpPatterns.map((pattern) => pattern.source).join("|"),
};

export type Finding = { where: string; kind: string; sample: string };

/** Every text, varchar, json, jsonb, array and inet column of every table, searched for each pattern. */
export async function scanDatabase(): Promise<{ columns: number; rows: number; findings: Finding[] }> {
  const columns = await db.$queryRawUnsafe<Array<{ table_name: string; column_name: string }>>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY', 'inet', 'cidr', 'USER-DEFINED')
      ORDER BY table_name, column_name`,
  );
  const tables = [...new Set(columns.map((column) => column.table_name))];
  let rows = 0;
  for (const table of tables)
    rows += Number((await db.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM "${table}"`))[0]?.n ?? 0);
  const findings: Finding[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    for (const [kind, pattern] of Object.entries(plaintextPatterns)) {
      const hits = await db.$queryRawUnsafe<Array<{ sample: string }>>(
        `SELECT substring("${column}"::text from $1) AS sample FROM "${table}" WHERE "${column}"::text ~* $1 LIMIT 3`,
        pattern,
      );
      for (const hit of hits) findings.push({ where: `${table}.${column}`, kind, sample: hit.sample });
    }
  }
  return { columns: columns.length, rows, findings };
}

/** The app server's output (scripts/test.ts tees it into APP_SERVER_LOG), line by line. */
export function scanAppLog(): { lines: number; findings: Finding[] } {
  const file = process.env.APP_SERVER_LOG;
  if (!file || !fs.existsSync(file)) throw new Error("APP_SERVER_LOG is not set or missing: run through `npm test`");
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const findings: Finding[] = [];
  lines.forEach((line, index) => {
    for (const [kind, pattern] of Object.entries(plaintextPatterns)) {
      const match = new RegExp(pattern, "i").exec(line);
      if (match) findings.push({ where: `app-server.log:${index + 1}`, kind, sample: match[0] });
    }
  });
  return { lines: lines.length, findings };
}
