import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumExecutablePath } from "./e2e/support/chromium";

// Playwright end-to-end specs (e2e/). `npm test` (scripts/test.ts) runs them after vitest against
// the same built app and database, passing TEST_BASE_URL, DATABASE_URL and the report path.

const root = import.meta.dirname;

export default defineConfig({
  testDir: "e2e",
  // One browser at a time: CI machines have 2 cores and the app server shares them.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: path.join(root, ".data-test/playwright"),
  reporter: [
    ["list"],
    ["json", { outputFile: path.resolve(root, process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? ".data-test/playwright-report.json") }],
  ],
  use: {
    baseURL: process.env.TEST_BASE_URL,
    // Not the server's zone (UTC): a page whose server HTML and hydration disagree on a local
    // time fails its test (React's hydration error is a page error, see e2e/support/fixtures.ts).
    timezoneId: "America/Los_Angeles",
    locale: "en-US",
    screenshot: "only-on-failure",
    trace: "off",
  },
  projects: [
    {
      name: "chromium",
      use: {
        browserName: "chromium",
        launchOptions: { executablePath: chromiumExecutablePath(), args: chromiumArgs },
      },
    },
  ],
});
