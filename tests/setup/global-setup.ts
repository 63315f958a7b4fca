// npm test (scripts/test.ts) sets DATABASE_URL to a freshly migrated database and, for the HTTP
// suites, TEST_BASE_URL to the running app. Fail early and clearly when run without them.
// The compiled server and CLI that suites spawn (tests/support/entry-points.ts) are rebuilt here,
// once, when a source changed (npm test has done it already; this is for a direct vitest run).
import { buildServer } from "../../scripts/build-server.mjs";

export default async function setup() {
  if (!process.env.DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: run `npm test`, or point DATABASE_URL at a migrated database (npm run db:migrate)");
  }
  await buildServer();
}
