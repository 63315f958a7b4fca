import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// Which Chromium the e2e stage drives. Playwright's own browser download fails on machines
// without general internet, so a system Chromium (Debian's `chromium` package) comes first;
// elsewhere Playwright's downloaded browser (`npx playwright install chromium`) works too.

const systemCandidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** Flags for a headless Chromium in CI containers (root, no GPU, no outbound traffic of its own). */
export const chromiumArgs = [
  "--headless",
  // Chromium's sandbox refuses to start as root; the pages loaded are our own app.
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** CHROMIUM_PATH, else a system Chromium; undefined lets Playwright use its downloaded browser. */
export function chromiumExecutablePath(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return systemCandidates.find((candidate) => fs.existsSync(candidate));
}

/** Playwright's downloaded Chromium, when `npx playwright install chromium` has run. */
function downloadedChromium(): string | null {
  try {
    // Loaded lazily: `npm test` calls this before deciding to run Playwright at all.
    const require = createRequire(import.meta.url);
    const { chromium } = require("playwright-core") as typeof import("playwright-core");
    const executable = chromium.executablePath();
    if (fs.existsSync(executable)) return executable;
    // Headless runs use the separate "headless shell" build, installed next to the full browser.
    for (let dir = path.dirname(executable); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const revision = /^chromium-(\d+)$/.exec(path.basename(dir))?.[1];
      if (!revision) continue;
      const shellDir = path.join(path.dirname(dir), `chromium_headless_shell-${revision}`);
      return fs.existsSync(shellDir) ? shellDir : null;
    }
    return null;
  } catch {
    return null;
  }
}

/** The Chromium the e2e stage would launch, or null when there is none (the stage is skipped). */
export function chromiumAvailable(): string | null {
  const explicit = process.env.CHROMIUM_PATH;
  if (explicit) return fs.existsSync(explicit) ? explicit : null;
  return chromiumExecutablePath() ?? downloadedChromium();
}
