import fs from "node:fs";
import path from "node:path";
import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";

// The `test` every spec imports: fails a test whose pages logged a console error or threw, and
// saves named full-page screenshots where the team can look at them.

export type Fixtures = {
  /** Console errors and uncaught page errors seen so far in this test's browser context. */
  browserErrors: string[];
  /**
   * Saves a full-page PNG of `page` (or of `target`, a page of another context) to
   * .data-test/screenshots/<name>.png and returns the path.
   * Not called `screenshot`: that name is Playwright's own option (`use.screenshot`).
   */
  saveScreenshot: (name: string, target?: Page) => Promise<string>;
};

function projectRoot(configFile: string | undefined) {
  return configFile ? path.dirname(configFile) : process.cwd();
}

export const test = base.extend<Fixtures>({
  browserErrors: async ({}, use) => {
    await use([]);
  },

  // Watches the whole context, so pages a spec opens itself (popups, newPage) count too.
  context: async ({ context, browserErrors }, use) => {
    watch(context, browserErrors);
    await use(context);
    // Only a tRPC 4xx is allowed (see watch): any other error in the browser is a bug.
    expect(browserErrors, "console errors / page errors in the browser").toEqual([]);
  },

  saveScreenshot: async ({ page }, use, testInfo) => {
    const dir = path.join(projectRoot(testInfo.config.configFile), ".data-test", "screenshots");
    await use(async (name: string, target?: Page) => {
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${name}.png`);
      await (target ?? page).screenshot({ path: file, fullPage: true });
      await testInfo.attach(name, { path: file, contentType: "image/png" });
      return file;
    });
  },
});

function watch(context: BrowserContext, errors: string[]) {
  context.on("console", (message) => {
    if (message.type() !== "error") return;
    const { url, lineNumber } = message.location();
    // A tRPC call refused with a 4xx is the app answering a bad input or a role rule, which the
    // page shows in its UI; Chromium still logs it. 5xx and everything else stay errors.
    if (/^Failed to load resource: the server responded with a status of 4\d\d\b/.test(message.text()) && url.includes("/api/trpc/")) return;
    errors.push(`console.error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ""}`);
  });
  context.on("weberror", (webError) => {
    const error = webError.error();
    errors.push(`page error: ${error.stack ?? error.message}`);
  });
}

export { expect };
