import fs from "node:fs";
import path from "node:path";
import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";

// The `test` every spec imports: fails a test whose pages logged a console error, threw or broke
// their Content-Security-Policy, and saves named full-page screenshots where the team can look at them.

export type Fixtures = {
  /** Console errors, uncaught page errors and CSP violations seen so far in this test's browser context. */
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
  context: async ({ context, browser, browserErrors }, use) => {
    await watch(context, browserErrors);
    // Contexts the spec opens itself (a second user's) are watched for CSP violations.
    const newContext = browser.newContext.bind(browser);
    browser.newContext = async (options) => {
      const opened = await newContext(options);
      await watch(opened, browserErrors, { policyOnly: true });
      return opened;
    };
    try {
      await use(context);
    } finally {
      browser.newContext = newContext;
    }
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

/**
 * Runs in every document before its own scripts. Chromium logs most CSP refusals as console errors
 * ("Refused to …"), but not every one reaches the console; every one fires this event.
 */
const reportPolicyViolations = () => {
  document.addEventListener("securitypolicyviolation", (event) => {
    console.error(
      `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"} in ${event.documentURI}${event.sample ? ` (${event.sample})` : ""}`,
    );
  });
};

/** `policyOnly`: only CSP violations count (contexts a spec opens itself, which may expect errors). */
async function watch(context: BrowserContext, errors: string[], options: { policyOnly?: boolean } = {}) {
  await context.addInitScript(reportPolicyViolations);
  context.on("console", (message) => {
    if (message.type() !== "error") return;
    if (options.policyOnly && !/^(CSP violation|Refused to)/.test(message.text())) return;
    const { url, lineNumber } = message.location();
    // A tRPC call (or a playground upload, or an export's range check) refused with a 4xx is the app
    // answering a bad input or a role rule, which the page shows in its UI; Chromium still logs it.
    // 5xx and everything else stay errors.
    if (
      /^Failed to load resource: the server responded with a status of 4\d\d\b/.test(message.text()) &&
      (url.includes("/api/trpc/") || url.includes("/api/playground/uploads") || /\/api\/(usage|activity)\/export\?/.test(url))
    )
      return;
    errors.push(`console.error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ""}`);
  });
  if (options.policyOnly) return;
  context.on("weberror", (webError) => {
    const error = webError.error();
    errors.push(`page error: ${error.stack ?? error.message}`);
  });
}

export { expect };
