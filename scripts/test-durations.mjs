// Writes tests/setup/durations.json from the last `npm test` run's report (.data-test/vitest-report.json):
// each suite's seconds, which tests/setup/slowest-first.ts uses to start the slowest suites first.
// Run after a full `npm test` when suites were added or got slower: node scripts/test-durations.mjs
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const report = JSON.parse(fs.readFileSync(path.join(root, ".data-test/vitest-report.json"), "utf8"));
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [path.relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
fs.writeFileSync(path.join(root, "tests/setup/durations.json"), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`tests/setup/durations.json: ${Object.keys(durations).length} suites`);
