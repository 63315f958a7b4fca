import "server-only";
import type { RegionName } from "../base/env";

// A batch of request-log rows as insert-request-logs.ts's one statement takes it: each small
// table's entries (accounts, keys, callers, routes) listed once, each row pointing at them by
// position, text made storable, error codes as numbers.

export type RequestLogRow = {
  accountId: string;
  /** null: a row logged without a key (only ever seeded). */
  apiKeyId: string | null;
  requestId: string;
  keyName: string;
  keyPrefix: string;
  keyStatus: string;
  method: string;
  endpoint: string;
  query: Record<string, string>;
  statusCode: number;
  errorCode: string | null;
  idempotentReplay: boolean;
  ipHash: string;
  userAgent: string | null;
  latencyMs: number;
  /** Where the request was served (usage counts per region); null only on rows from before regions. */
  region: RegionName | null;
  createdAt: Date;
  /** Moves the key's last_used_at to createdAt. */
  touchLastUsed: boolean;
};

const NIL_UUID = "00000000-0000-0000-0000-000000000000";
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ERROR_CODE = /^ERR([1-9]\d{3})$/;

/** ERR1002 → 1002, none → 0 (the column is a smallint; the error table's codes are ERR and four digits). */
export function errorCodeNumber(code: string | null): number {
  if (code === null) return 0;
  const match = ERROR_CODE.exec(code);
  if (!match) throw new RangeError(`Not an error table code: ${code}`);
  return Number(match[1]);
}

/**
 * PostgreSQL's text cannot hold U+0000, which a query string can carry (`?q=%00`): one such row
 * made the whole batch fail, so the requests beside it were lost too. It is kept as U+FFFD.
 */
function storable(value: string): string {
  return value.replaceAll("\u0000", "\uFFFD");
}

/** Distinct values, each given its position (1-based, as SQL's WITH ORDINALITY counts). */
class Numbered<T> {
  readonly values: T[] = [];
  private readonly positions = new Map<string, number>();
  constructor(private readonly identity: (value: T) => unknown[]) {}
  add(value: T): number {
    const key = JSON.stringify(this.identity(value));
    let position = this.positions.get(key);
    if (position === undefined) {
      this.values.push(value);
      position = this.values.length;
      this.positions.set(key, position);
    }
    return position;
  }
  column<V>(pick: (value: T) => V): V[] {
    return this.values.map(pick);
  }
}

type Caller = { key: number; name: string; prefix: string; state: string; ipHash: string; userAgent: string | null; seen: Date };
type Route = { account: number; method: string; endpoint: string; region: RegionName | null; seen: Date };

function latest<T extends { seen: Date }>(entry: T, at: Date) {
  if (entry.seen < at) entry.seen = at;
}

/** The statement's parameters, $1 to $29, in its order. */
export function batchParams(batch: RequestLogRow[]) {
  const accounts = new Numbered<string>((id) => [id]);
  const keys = new Numbered<{ account: number; apiKeyId: string | null }>((key) => [key.account, key.apiKeyId]);
  const callers = new Numbered<Caller>((c) => [c.key, c.name, c.prefix, c.state, c.ipHash, c.userAgent]);
  const routes = new Numbered<Route>((r) => [r.account, r.method, r.endpoint, r.region]);
  const touched = new Map<string, Date>();
  const rows = batch.map((row) => {
    const account = accounts.add(row.accountId);
    const key = keys.add({ account, apiKeyId: row.apiKeyId });
    const callerEntry: Caller = {
      key,
      name: storable(row.keyName),
      prefix: storable(row.keyPrefix),
      state: row.keyStatus,
      ipHash: row.ipHash,
      userAgent: row.userAgent === null ? null : storable(row.userAgent),
      seen: row.createdAt,
    };
    const caller = callers.add(callerEntry);
    latest(callers.values[caller - 1]!, row.createdAt);
    const route = routes.add({ account, method: row.method, endpoint: storable(row.endpoint), region: row.region, seen: row.createdAt });
    latest(routes.values[route - 1]!, row.createdAt);
    if (row.touchLastUsed && row.apiKeyId !== null) {
      const seen = touched.get(row.apiKeyId);
      if (!seen || seen < row.createdAt) touched.set(row.apiKeyId, row.createdAt);
    }
    const uuid = CANONICAL_UUID.test(row.requestId);
    const query = Object.entries(row.query).map(([name, value]) => [storable(name), storable(value)]);
    return {
      account,
      key,
      caller,
      route,
      createdAt: row.createdAt.toISOString(),
      requestId: uuid ? row.requestId : NIL_UUID,
      requestRef: uuid ? "" : storable(row.requestId),
      latencyMs: row.latencyMs,
      statusCode: row.statusCode,
      errorCode: errorCodeNumber(row.errorCode),
      idempotentReplay: row.idempotentReplay,
      query: query.length === 0 ? "" : JSON.stringify(Object.fromEntries(query)),
    };
  });
  const iso = (at: Date) => at.toISOString();
  const pick = <K extends keyof (typeof rows)[number]>(name: K) => rows.map((row) => row[name]);
  return [
    accounts.values,
    keys.column((k) => k.account),
    keys.column((k) => k.apiKeyId),
    callers.column((c) => c.key),
    callers.column((c) => c.name),
    callers.column((c) => c.prefix),
    callers.column((c) => c.state),
    callers.column((c) => c.ipHash),
    callers.column((c) => c.userAgent),
    callers.column((c) => iso(c.seen)),
    routes.column((r) => r.account),
    routes.column((r) => r.method),
    routes.column((r) => r.endpoint),
    routes.column((r) => r.region),
    routes.column((r) => iso(r.seen)),
    pick("account"),
    pick("key"),
    pick("caller"),
    pick("route"),
    pick("createdAt"),
    pick("requestId"),
    pick("requestRef"),
    pick("latencyMs"),
    pick("statusCode"),
    pick("errorCode"),
    pick("idempotentReplay"),
    pick("query"),
    [...touched.keys()],
    [...touched.values()].map(iso),
  ];
}
