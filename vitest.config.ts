import path from "node:path";
import { defineConfig } from "vitest/config";

// `npm test` (scripts/test.ts) prepares a migrated database and the built app, then runs this.
// A single file can run directly: DATABASE_URL=<migrated db> npx vitest run tests/unit/...
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/support/empty-module.ts"),
    },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default"],
  },
});
