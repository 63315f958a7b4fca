import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Starts the slowest suites first (their seconds in the last full run: durations.json, written by
// scripts/test-durations.mjs), so the two workers finish together instead of one waiting on a
// two-minute suite picked last. A suite the file does not know counts as the median.

const root = path.resolve(import.meta.dirname, "../..");

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "durations.json"), "utf8")) as Record<string, number>;
    const known = Object.values(durations).sort((a, b) => a - b);
    const median = known[Math.floor(known.length / 2)] ?? 0;
    const seconds = (spec: TestSpecification) => durations[path.relative(root, spec.moduleId)] ?? median;
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
