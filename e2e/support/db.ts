import pg from "pg";

// Direct access to the test database for specs that set up or inspect state the UI cannot
// reach. `npm test` passes the same DATABASE_URL to the app server and to Playwright.

let pool: pg.Pool | null = null;

function connect() {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error("DATABASE_URL is not set (run the specs through `npm test`)");
  // One connection is enough: specs run one at a time (workers: 1).
  pool ??= new pg.Pool({ connectionString, max: 1 });
  return pool;
}

/** Runs one statement and returns its rows. */
export async function query<Row extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<Row[]> {
  const result = await connect().query<Row>(sql, params);
  return result.rows;
}

/** Ends the pool (call from afterAll so the worker exits promptly). */
export async function close() {
  const current = pool;
  pool = null;
  await current?.end();
}
