import pg from "pg";

// The scale row set's history (issue #47), bulk-loaded by SQL into the product's own tables as the
// issue's measurement did: one account's 90 days of request log (about 1.3 requests a second at
// 10 million rows), generations with their attempts, and activity events. Statements of a
// million rows at most, so the usage counters' statement triggers see large batches, as a bulk load
// gives them. The generation-event triggers (the live feed's history) are held during the load:
// they would write a million feed events nobody asked for; the usage triggers run as always.

export type HistorySize = { requests: number; generations: number; activity: number; days: number };

const CHUNK = 1_000_000;
const EVENT_TRIGGERS = [
  ["generation", "generation_events_created"],
  ["generation", "generation_events_status"],
  ["provider_attempt", "provider_attempt_events_started"],
  ["provider_attempt", "provider_attempt_events_outcome"],
] as const;

export async function loadHistory(
  databaseUrl: string,
  account: { accountId: string; keyId: string; now: Date },
  size: HistorySize,
): Promise<{ seconds: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  const span = size.days * 86_400;
  try {
    for (const [table, trigger] of EVENT_TRIGGERS) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
    // The request log's small tables (server/request-logs/README.md): the account, its key, two
    // callers, five routes; then the rows, numbers only.
    await client.query(`INSERT INTO request_log_account (account_id) VALUES ($1) ON CONFLICT (account_id) DO NOTHING`, [account.accountId]);
    await client.query(
      `INSERT INTO request_log_key (account_no, api_key_id) SELECT account_no, $2 FROM request_log_account WHERE account_id = $1
       ON CONFLICT DO NOTHING`,
      [account.accountId, account.keyId],
    );
    await client.query(
      `INSERT INTO request_log_caller (key_no, key_name, key_prefix, key_state, ip_hash, user_agent, last_seen_at)
       SELECT k.key_no, 'bench', 'dkr_bench', 'active', encode(sha256(('10.0.0.' || c)::bytea), 'hex'), 'darkroom-python/1.4 (bench)', now()
         FROM request_log_key k CROSS JOIN generate_series(1, 2) c WHERE k.api_key_id = $1`,
      [account.keyId],
    );
    await client.query(
      `INSERT INTO request_log_route (account_no, method, endpoint, region, last_seen_at)
       SELECT a.account_no, r.method, r.endpoint, 'us', now() FROM request_log_account a,
              unnest(ARRAY['POST', 'GET', 'GET', 'GET', 'GET'],
                     ARRAY['/v1/generate/image/{model}', '/v1/content/{generation_id}', '/v1/content/list', '/v1/usage', '/v1/status']) AS r(method, endpoint)
        WHERE a.account_id = $1`,
      [account.accountId],
    );
    await client.query(
      `SELECT request_log_ensure_partitions($1::timestamptz - make_interval(days => $2 + 7), $1::timestamptz + interval '7 days')`,
      [account.now.toISOString(), size.days],
    );
    for (let from = 0; from < size.requests; from += CHUNK) {
      await client.query(
        `WITH ids AS (
           SELECT k.key_no, k.account_no,
                  (SELECT array_agg(caller_no ORDER BY caller_no) FROM request_log_caller c WHERE c.key_no = k.key_no) AS callers,
                  (SELECT array_agg(route_no ORDER BY route_no) FROM request_log_route t WHERE t.account_no = k.account_no) AS routes
             FROM request_log_key k WHERE k.api_key_id = $1
         )
         INSERT INTO request_log_row (created_at, request_id, account_no, key_no, caller_no, route_no, latency_ms, status_code, error_code,
                                      idempotent_replay, request_ref, query)
         SELECT $2::timestamptz - make_interval(secs => (i::float8 * $3) / $4), gen_random_uuid(), ids.account_no, ids.key_no,
                ids.callers[1 + i % 2], ids.routes[1 + i % 5], 20 + (i % 200)::int,
                CASE WHEN i % 100 < 95 THEN 200 WHEN i % 100 < 98 THEN 400 + (i % 3) * 2 ELSE 500 END,
                CASE WHEN i % 100 < 95 THEN 0 WHEN i % 100 < 98 THEN (ARRAY[1001, 1004, 1006])[1 + i % 3] ELSE 5000 END,
                i % 50 = 0, '', CASE WHEN i % 5 = 2 THEN '{"limit":"100"}' ELSE '' END
           FROM ids, generate_series($5::bigint, $6::bigint) AS i`,
        [account.keyId, account.now.toISOString(), span, size.requests, from, Math.min(from + CHUNK, size.requests) - 1],
      );
    }
    for (let from = 0; from < size.generations; from += CHUNK) {
      await client.query(
        `WITH made AS (
           INSERT INTO generation (id, account_id, api_key_id, region, media_kind, model_identifier, status, prompt, provider_order, provider_used,
                                   estimated_cost, output_keys, started_at, completed_at, created_at, updated_at)
           SELECT gen_random_uuid(), $1, $2, 'us', 'image', (ARRAY['black-forest-labs/flux-schnell', 'black-forest-labs/flux-dev', 'google/imagen-4'])[1 + i % 3],
                  CASE WHEN i % 50 = 0 THEN 'failed'::"GenerationStatus" ELSE 'succeeded'::"GenerationStatus" END,
                  'a lighthouse at dusk ' || i, ARRAY['replicate', 'fal'], CASE WHEN i % 7 = 0 THEN 'fal' ELSE 'replicate' END,
                  (ARRAY[0.003, 0.025, 0.040])[1 + i % 3], ARRAY['generations/bench/' || i || '.png'],
                  at, at + interval '2 seconds', at, at
             FROM (SELECT i, $3::timestamptz - make_interval(secs => (i::float8 * $4) / $5) AS at FROM generate_series($6::bigint, $7::bigint) AS i) spread
           RETURNING id, account_id, region, model_identifier, provider_used, status, estimated_cost, created_at
         )
         INSERT INTO provider_attempt (id, generation_id, account_id, region, model_identifier, provider, attempt_number, outcome, estimated_cost,
                                       provider_cost, wasted, latency_ms, started_at, finished_at)
         SELECT gen_random_uuid(), id, account_id, region, model_identifier, provider_used, 1,
                CASE WHEN status = 'failed' THEN 'failed'::"AttemptOutcome" ELSE 'succeeded'::"AttemptOutcome" END,
                estimated_cost, estimated_cost / 2, false, 1800, created_at, created_at + interval '2 seconds'
           FROM made`,
        [
          account.accountId,
          account.keyId,
          account.now.toISOString(),
          span,
          size.generations,
          from,
          Math.min(from + CHUNK, size.generations) - 1,
        ],
      );
    }
    for (let from = 0; from < size.activity; from += CHUNK) {
      await client.query(
        `INSERT INTO activity_event (id, account_id, actor, category, action, description, metadata, created_at)
         SELECT gen_random_uuid(), $1, 'system', 'generation', 'generation.succeeded', 'Generation ' || i || ' succeeded.', '{}'::jsonb,
                $2::timestamptz - make_interval(secs => (i::float8 * $3) / $4)
           FROM generate_series($5::bigint, $6::bigint) AS i`,
        [account.accountId, account.now.toISOString(), span, size.activity, from, Math.min(from + CHUNK, size.activity) - 1],
      );
    }
  } finally {
    for (const [table, trigger] of EVENT_TRIGGERS) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
    await client.end();
  }
  return { seconds: Math.round((performance.now() - started) / 100) / 10 };
}
