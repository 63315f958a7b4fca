import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";

// Prisma migrations applied offline: the 7.x CLI only drives its native schema engine (a download
// that fails here), so we drive @prisma/schema-engine-wasm directly through the pg driver adapter.
// It writes the same `_prisma_migrations` bookkeeping as `prisma migrate deploy`, which reads the
// same folder wherever the native engine exists.

export const migrationsDir = path.resolve(import.meta.dirname, "../../prisma/migrations");
export const schemaPath = path.resolve(import.meta.dirname, "../../prisma/schema.prisma");

type WasmEngine = {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  diagnoseMigrationHistory(input: unknown): Promise<unknown>;
  free(): void;
};

type PgResult = { fields?: Array<{ dataTypeID: number }> };
type RawResult = { columnTypes: number[] };
type Queryable = { queryRaw(query: unknown): Promise<RawResult> };
const patched = Symbol("darkroom.charColumns");
const CHAR_OID = 18;
const TEXT_OID = 25;
const CHARACTER_COLUMN = 6; // ColumnTypeEnum.Character of @prisma/driver-adapter-utils

// adapter-pg cannot map PostgreSQL's internal "char" type (OID 18), which the engine's catalog
// reads return, and the engine wants those columns typed as Character. The pg layer hides the
// OID (as text) and notes the column; the adapter layer then reports it as Character. queryRaw
// reaches pg's query() synchronously, so the note is handed over without interleaving.
let charColumnsOfPendingQuery: number[] | null = null;

function hideCharOids<T extends object>(queryable: T): T {
  const target = queryable as T & {
    query: (...args: unknown[]) => Promise<PgResult>;
    connect?: (...args: unknown[]) => unknown;
    [patched]?: true;
  };
  if (target[patched]) return queryable;
  target[patched] = true;
  const query = target.query.bind(target);
  target.query = async (...args: unknown[]) => {
    const charColumns = charColumnsOfPendingQuery;
    charColumnsOfPendingQuery = null;
    const result = await query(...args);
    result?.fields?.forEach((field, index) => {
      if (field.dataTypeID !== CHAR_OID) return;
      field.dataTypeID = TEXT_OID;
      charColumns?.push(index);
    });
    return result;
  };
  if (target.connect) {
    // pg's Pool.query itself calls connect(callback): only the promise form is ours to wrap.
    const connect = target.connect.bind(target);
    target.connect = (...args: unknown[]) => (args.length > 0 ? connect(...args) : (connect() as Promise<object>).then(hideCharOids));
  }
  return queryable;
}

function reportCharColumns<T extends Queryable>(queryable: T): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query: unknown) => {
    const charColumns: number[] = [];
    charColumnsOfPendingQuery = charColumns;
    const pending = queryRaw(query);
    charColumnsOfPendingQuery = null;
    const result = await pending;
    for (const index of charColumns) result.columnTypes[index] = CHARACTER_COLUMN;
    return result;
  };
  return queryable;
}

async function adminExecute(url: string, sql: string) {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

type ScriptAdapter = Queryable & {
  executeScript(script: string): Promise<void>;
  underlyingDriver(): { query(sql: string): Promise<unknown> };
  startTransaction(...args: unknown[]): Promise<unknown>;
};

/** Adapter fixes for the engine. Also: the stock executeScript splits on every ";" (breaking
 *  function bodies and comments); send the script whole, as one simple-protocol query. */
function forMigrations<T extends ScriptAdapter>(adapter: T): T {
  hideCharOids(adapter.underlyingDriver());
  reportCharColumns(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...args: unknown[]) => reportCharColumns((await startTransaction(...args)) as Queryable);
  adapter.executeScript = async (script: string) => {
    await adapter.underlyingDriver().query(script);
  };
  return adapter;
}

class MigrationAdapterFactory {
  readonly provider = "postgres" as const;
  readonly adapterName = "@prisma/adapter-pg";
  constructor(private readonly url: string) {}

  async connect() {
    return forMigrations(await new PrismaPg(this.url).connect());
  }

  /** The stock teardown drops the shadow database before closing its own pool; close first. */
  async connectToShadowDb() {
    const name = `prisma_migrate_shadow_db_${randomUUID().replaceAll("-", "")}`;
    await adminExecute(this.url, `create database "${name}"`);
    const shadowUrl = new URL(this.url);
    shadowUrl.pathname = `/${name}`;
    const adapter = forMigrations(await new PrismaPg(shadowUrl.toString()).connect());
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await adminExecute(this.url, `drop database if exists "${name}" with (force)`);
    };
    return adapter;
  }
}

async function loadEngine(url: string): Promise<WasmEngine> {
  // The engine reports a Rust panic's message here before throwing.
  const globals = globalThis as unknown as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
  globals.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (message) => console.error(`schema engine panic: ${message}`) };
  const require = createRequire(import.meta.url);
  const bindingsPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bindings = (await import(bindingsPath)) as Record<string, unknown> & {
    __wbg_set_wasm: (w: unknown) => void;
    SchemaEngine: { new: (...a: unknown[]) => Promise<WasmEngine> };
  };
  const bytes = fs.readFileSync(path.join(path.dirname(bindingsPath), "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bindings as WebAssembly.ModuleImports });
  bindings.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  const adapter = bindMigrationAwareSqlAdapterFactory(new MigrationAdapterFactory(url) as never);
  return bindings.SchemaEngine.new({ datamodels: undefined }, () => undefined, adapter);
}

function migrationsList() {
  const names = fs.existsSync(migrationsDir)
    ? fs
        .readdirSync(migrationsDir)
        .filter((entry) => fs.statSync(path.join(migrationsDir, entry)).isDirectory())
        .sort()
    : [];
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: names.map((name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      return {
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(file)
            ? { tag: "ok", value: fs.readFileSync(file, "utf8") }
            : { tag: "error", value: "missing migration.sql" },
        },
      };
    }),
  };
}

const noFilters = { externalTables: [], externalEnums: [] };

type MigrationsList = ReturnType<typeof migrationsList>;

/**
 * Whether the engine would find nothing to do: every migration in the folder is recorded as
 * applied and none as failed (the engine refuses to go on past a failed one), the lock file names
 * PostgreSQL, and the URL picks no schema of its own. Loading the engine costs a 5 MB WebAssembly
 * module whose code and memory the process keeps for good (10-15 MB of RSS in a process that only
 * migrates; issue #12), on every start, for what is usually no migration at all. Any doubt (no
 * table yet, a read that fails) leaves the decision to the engine.
 */
async function nothingToApply(url: string, list: MigrationsList): Promise<boolean> {
  if (new URL(url).searchParams.has("schema")) return false;
  if (!/^\s*provider\s*=\s*"postgresql"\s*$/m.test(list.lockfile.content ?? "")) return false;
  if (list.migrationDirectories.some((directory) => directory.migrationFile.content.tag !== "ok")) return false;
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const table = await client.query<{ exists: boolean }>("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists");
    if (!table.rows[0]?.exists) return false;
    const { rows } = await client.query<{ name: string; finished: boolean; rolled_back: boolean }>(
      "SELECT migration_name AS name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations",
    );
    if (rows.some((row) => !row.finished && !row.rolled_back)) return false;
    const applied = new Set(rows.filter((row) => row.finished && !row.rolled_back).map((row) => row.name));
    return list.migrationDirectories.every((directory) => applied.has(directory.path));
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Applies every pending migration; safe to call on every boot (a no-op when up to date). */
export async function applyMigrations(url: string): Promise<string[]> {
  const list = migrationsList();
  if (await nothingToApply(url, list)) return [];
  const engine = await loadEngine(url);
  try {
    const result = await engine.applyMigrations({ migrationsList: list, filters: noFilters });
    return result.appliedMigrationNames;
  } finally {
    engine.free();
  }
}

/** The SQL that takes the migrations folder to the current schema (empty when in sync). */
export async function diffMigrationsToSchema(url: string): Promise<string> {
  const engine = await loadEngine(url);
  try {
    const result = await engine.diff({
      from: { tag: "migrations", ...migrationsList() },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: fs.readFileSync(schemaPath, "utf8") }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    return result.stdout ?? "";
  } finally {
    engine.free();
  }
}
