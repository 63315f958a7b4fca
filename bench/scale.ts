import pg from "pg";
import type { Figure } from "./report";
import { loadHistory, type HistorySize } from "./scale-history";

// BENCH_ONLY=scale, and the scale rows of the whole bench (issue #47): the same reads on an empty
// Enterprise account and on one given a 90-day history (bench/scale-history.ts), each the median of
// five after a warm-up; every read must stay ≤ 100 ms and ≤ 3 × its empty-account time. Also the
// request log's bytes a row (with its indexes) and the fold of the counters after the load.
// BENCH_SCALE_REQUESTS / _GENERATIONS / _ACTIVITY size the history (10M / 1M / 1M by default).

export type ScaleInput = {
  baseUrl: string;
  databaseUrl: string;
  newAccount(label: string): Promise<{ accountId: string; key: string; keyId: string }>;
  /** In-process reads of the dashboard's pages for an account (the usage page, the overview, the request log). */
  dashboardReads(accountId: string): Array<{ name: string; read: () => Promise<unknown> }>;
};

const SAMPLES = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function historySize(): HistorySize {
  return {
    requests: Number(process.env.BENCH_SCALE_REQUESTS ?? 10_000_000),
    generations: Number(process.env.BENCH_SCALE_GENERATIONS ?? 1_000_000),
    activity: Number(process.env.BENCH_SCALE_ACTIVITY ?? 1_000_000),
    days: 90,
  };
}

async function timed(read: () => Promise<unknown>): Promise<number> {
  await read();
  const times: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample += 1) {
    const started = performance.now();
    await read();
    times.push(performance.now() - started);
  }
  return round(median(times), 2);
}

function httpRead(baseUrl: string, key: string, path: string) {
  return async () => {
    const reply = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = await reply.text();
    if (reply.status !== 200) throw new Error(`${path} answered ${reply.status}: ${body.slice(0, 300)}`);
    return body;
  };
}

async function readsOf(input: ScaleInput, account: { accountId: string; key: string }, generationId: string) {
  const paths = [
    "/v1/usage?days=90",
    "/v1/usage?days=7",
    "/v1/usage?days=1",
    "/v1/content/list?limit=100",
    "/v1/content/list?limit=100&offset=500000",
    `/v1/content/${generationId}`,
    "/v1/status",
  ];
  const reads = [
    ...paths.map((path) => ({ name: `GET ${path.replace(generationId, "{id}")}`, read: httpRead(input.baseUrl, account.key, path) })),
    ...input.dashboardReads(account.accountId),
  ];
  const times: Record<string, number> = {};
  for (const { name, read } of reads) times[name] = await timed(read);
  return times;
}

export async function measureScale(input: ScaleInput) {
  const size = historySize();
  const pool = new pg.Pool({ connectionString: input.databaseUrl, max: 2 });
  try {
    const newestGeneration = async (accountId: string) =>
      (
        await pool.query<{ id: string }>(`SELECT id::text AS id FROM generation WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1`, [
          accountId,
        ])
      ).rows[0]?.id;

    // The empty account: one generation, so its record read has something to read.
    const empty = await input.newAccount("scale-empty");
    await pool.query(
      `INSERT INTO generation (id, account_id, api_key_id, region, media_kind, model_identifier, status, estimated_cost, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, 'us', 'image', 'black-forest-labs/flux-schnell', 'succeeded', 0.003, now(), now())`,
      [empty.accountId, empty.keyId],
    );
    const emptyTimes = await readsOf(input, empty, (await newestGeneration(empty.accountId))!);

    const loaded = await input.newAccount("scale-history");
    const load = await loadHistory(input.databaseUrl, { accountId: loaded.accountId, keyId: loaded.keyId, now: new Date() }, size);
    const pending = Number(
      (
        await pool.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM request_usage_change) + (SELECT count(*) FROM generation_usage_change) AS n`,
        )
      ).rows[0]!.n,
    );
    await pool.query("ANALYZE");
    const unfoldedTimes = await readsOf(input, loaded, (await newestGeneration(loaded.accountId))!);
    const foldStarted = performance.now();
    await pool.query("SELECT darkroom_fold_usage()");
    const foldMs = round(performance.now() - foldStarted, 0);
    const historyTimes = await readsOf(input, loaded, (await newestGeneration(loaded.accountId))!);

    const bytes = (
      await pool.query<{ bytes: string; rows: string }>(
        `SELECT (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits WHERE inhparent = 'request_log_row'::regclass) AS bytes,
                (SELECT count(*) FROM request_log_row) AS rows`,
      )
    ).rows[0]!;
    const bytesPerRow = round(Number(bytes.bytes) / Math.max(1, Number(bytes.rows)), 1);

    const figures: Figure[] = Object.keys(emptyTimes).map((name) => {
      const ms = historyTimes[name]!;
      const ratio = round(ms / emptyTimes[name]!, 2);
      return {
        label: `Scale: ${name} with the history`,
        value: ms,
        unit: "ms p50",
        target: "≤ 100 ms and ≤ 3 × empty",
        met: ms <= 100 && ratio <= 3,
        note: `empty account ${emptyTimes[name]} ms (× ${ratio}); before the fold ${unfoldedTimes[name]} ms`,
      };
    });
    figures.push({
      label: "Scale: request log bytes a row, indexes included",
      value: bytesPerRow,
      unit: "B",
      target: "≤ 150 B",
      met: bytesPerRow <= 150,
      note: `${bytes.rows} rows, ${round(Number(bytes.bytes) / 1024 ** 3, 2)} GiB`,
    });
    const report = {
      measured_at: new Date().toISOString(),
      history: { ...size, load_seconds: load.seconds, change_rows_after_load: pending, fold_ms: foldMs },
      empty_account_ms: emptyTimes,
      history_before_fold_ms: unfoldedTimes,
      history_ms: historyTimes,
      request_log: { rows: Number(bytes.rows), bytes: Number(bytes.bytes), bytes_per_row: bytesPerRow },
    };
    return { report, figures };
  } finally {
    await pool.end();
  }
}
