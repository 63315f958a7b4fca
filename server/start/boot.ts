import { disabledCatalog } from "../catalog/disabled-catalog";
import { env, setRuntimeEnv } from "../base/env";
import { ensureDatabase, type DatabaseHandle } from "./database";
import { applyMigrations } from "./migrations";
import { ensureAuthSecret, ensureEncryptionKey } from "./secrets";
import { log } from "../base/log";

// Everything before serving: configuration and secrets, the database (embedded when DATABASE_URL
// is unset), migrations, and sealing any secret still in plain text. Shared by `npm start` and the CLI.

/** The request log's weeks from last week to a few ahead (also made hourly, and by a writer that finds none). */
async function requestLogWeeksAhead() {
  const [{ sqlPool }, { ensureRequestLogWeeksAhead }] = await Promise.all([import("../base/db"), import("../request-logs/partitions")]);
  await ensureRequestLogWeeksAhead(sqlPool(), new Date());
}

/** Webhook secrets stored before sealing existed are sealed once, at the first boot that has a key. */
async function sealPlainTextSecrets() {
  const [{ db }, { resealWebhookSecrets }] = await Promise.all([import("../base/db"), import("../webhooks/reseal-secrets")]);
  const { resealed } = await resealWebhookSecrets(db, { plainTextOnly: true });
  if (resealed > 0) log.info("webhook secrets sealed", { resealed });
}

export async function bootRuntime(options: { quiet?: boolean } = {}): Promise<DatabaseHandle> {
  const config = env();
  // A model or provider turned off by a name the catalog does not know fails the start, naming it.
  disabledCatalog();
  // Decided once, from the operator's NODE_ENV, before Next sets its own (server/base/env.ts).
  process.env.DARKROOM_DEPLOYMENT_ENV ??= config.NODE_ENV;
  ensureAuthSecret();
  ensureEncryptionKey();
  const database = await ensureDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, quiet: options.quiet });
  setRuntimeEnv("DATABASE_URL", database.url);
  const applied = await applyMigrations(database.url);
  // A log line on stderr, not the embedded database's chatter that `quiet` silences.
  if (applied.length > 0) log.info("migrations applied", { applied });
  await sealPlainTextSecrets();
  await requestLogWeeksAhead();
  return database;
}
