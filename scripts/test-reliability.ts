import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { writeReliabilityReport } from "./reliability-report";

// `npm run test:reliability`: the reliability drills (tests/reliability) at full size, through the
// same harness as `npm test` (a fresh migrated database, the built app on a free port, the provider
// fakes), then docs/reliability.md from what each drill recorded. `npm test` runs them reduced.
// `npm run test:reliability -- <file>` runs some drills and leaves the page alone.

const root = path.resolve(import.meta.dirname, "..");
const resultsDir = path.join(root, ".data-test", "reliability-full");

async function main() {
  fs.rmSync(resultsDir, { recursive: true, force: true });
  const filters = process.argv.slice(2);
  const status = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/test.ts", ...(filters.length ? filters : ["tests/reliability/"])], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, RELIABILITY_FULL: "1", RELIABILITY_RESULTS_DIR: resultsDir },
    });
    child.on("exit", (code) => resolve(code ?? 1));
  });
  if (filters.length > 0) {
    // Some drills only: the page keeps the last whole run (it would lose the others' figures).
    console.log(`docs/reliability.md left as it was (some drills only); their records: ${path.relative(root, resultsDir)}`);
  } else {
    const written = writeReliabilityReport(resultsDir, path.join(root, "docs", "reliability.md"), status === 0);
    console.log(`docs/reliability.md: ${written} drill records${status === 0 ? "" : " (the run failed: the page says so)"}`);
  }
  process.exit(status);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
