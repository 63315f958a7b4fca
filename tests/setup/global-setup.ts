// npm test (scripts/test.ts) sets DATABASE_URL to a freshly migrated database and, for the HTTP
// suites, TEST_BASE_URL to the running app. Fail early and clearly when run without them.
export default function setup() {
  if (!process.env.DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: run `npm test`, or point DATABASE_URL at a migrated database (npm run db:migrate)");
  }
}
