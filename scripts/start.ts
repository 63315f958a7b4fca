import { devMailboxEnabled } from "../server/email/dev-mailbox";
import { appUrl, env, isProductionDeployment } from "../server/base/env";
import { bootRuntime } from "../server/start/boot";
import { ensureBuild } from "../server/start/build";
import { startHttpServer } from "../server/start/http-server";
import { log } from "../server/base/log";
import { readEnvFromSnapshot } from "../server/start/plain-process-env";
import { runShutdownHooks } from "../server/base/shutdown";

// `npm start`: database (embedded unless DATABASE_URL), migrations, demo seed (never in
// production), build if the sources changed, then serve on PORT. Flags: --dev (next dev),
// --no-seed, --no-build.

const flags = new Set(process.argv.slice(2));
/**
 * Imported only to seed: the seed reaches the Inngest SDK (through account creation), which the
 * server's own module graph otherwise never loads; with --no-seed it stays out of memory (#12).
 */
const seedDemo = async () => (await import("../prisma/seed")).seedDemo();
/** Read before booting: a parent that dies during boot must still be noticed. */
const parentAtStart = process.ppid;
const STOP_GRACE_MS = 15_000;

// Logs go to stdout/stderr. If whoever reads them is gone (a killed runner's pipe), a write fails
// with EPIPE: unhandled, that error reaches Next's uncaught-exception handler, which logs it to the
// same pipe, and so on, a loop that holds a core. Such a pipe is ignored; the server goes on.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);

async function main() {
  readEnvFromSnapshot();
  const database = await bootRuntime();
  const dev = flags.has("--dev");
  if (!dev && !flags.has("--no-build")) ensureBuild();

  const config = env();
  const server = await startHttpServer({ port: config.PORT, host: config.HOST, dev });
  // Once the server listens, so a start that fails before (a build, a port in use) makes no key
  // that nobody saw. A production deployment gets no demo account and no key, whatever the flags.
  const demo = flags.has("--no-seed") || isProductionDeployment() ? null : await seedDemo();
  const lines = [
    "",
    `  Darkroom is serving on ${server.url}`,
    `  API base:      ${server.url}/v1   (OpenAPI: ${server.url}/v1/openapi.json)`,
    `  Dashboard:     ${appUrl()}/login${devMailboxEnabled() ? `   (sign-in links land in the dev mailbox: ${appUrl()}/dev/mailbox)` : ""}`,
    `  Database:      ${database.embedded ? `embedded PostgreSQL in ${config.DATA_DIR}` : "DATABASE_URL"}`,
  ];
  if (demo) {
    lines.push(
      `  Demo login:    ${demo.email}   (account ${demo.accountId}, ${demo.plan} plan, ${demo.balance} credits)`,
      demo.key
        ? `  Demo API key:  ${demo.key}   (shown this once; no file keeps it)`
        : `  Demo API key:  ${demo.keyPrefix}…   (printed in full at the start that made it; make another: npm run cli -- key:create --account ${demo.accountId})`,
      "",
      `  curl -H "Authorization: Bearer ${demo.key ?? "<key>"}" ${server.url}/v1/status`,
    );
  }
  console.log(lines.join("\n") + "\n");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // A shutdown step that hangs (a database gone before its last flush) must not keep the
    // process alive: past the grace period it exits anyway.
    setTimeout(() => process.exit(1), STOP_GRACE_MS).unref();
    log.info("shutting down", { signal });
    await server.close();
    // Buffered request logs are written and the key-change listener closed before the database goes.
    await runShutdownHooks();
    await database.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  // Started by the test runner or the bench: a runner killed outright cannot stop its app, which
  // would go on serving (and running background work) against the next run's database.
  if (process.env.DARKROOM_EXIT_WITH_PARENT === "1") {
    const watch = setInterval(() => {
      if (process.ppid !== parentAtStart) void stop("parent exited");
    }, 1000);
    watch.unref();
    if (process.ppid !== parentAtStart) void stop("parent exited");
  }
}

main().catch((error) => {
  log.error("start failed", { error: error instanceof Error ? error.stack : String(error) });
  process.exit(1);
});
