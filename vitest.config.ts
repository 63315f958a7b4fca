import path from "node:path";
import { defineConfig } from "vitest/config";
import SlowestFirst from "./tests/setup/slowest-first";

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
    // Generous: on 2 busy cores a test that spawned the CLI (then a tsx process each) or waits on Stripe's
    // signed events took 25-30 s (CI once timed out at 30 s); a hang still fails, just later.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    reporters: ["default"],
  },
});
