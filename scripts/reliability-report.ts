import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DrillRecord } from "../tests/reliability/drill";

// docs/reliability.md from the drills' records (tests/reliability/drill.ts): one section per drill,
// each case with its size, duration, figures and what was checked.

type Stored = DrillRecord & { case: string; host: string; cpus: number; at: string };

const TITLES: Record<string, string> = {
  R1: "R1 overdraw",
  R2: "R2 idempotency storm",
  R3: "R3 chaos",
  R4: "R4 hostile input",
  R5: "R5 isolation",
  R6: "R6 restart",
};

function readRecords(dir: string): Stored[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as Stored);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function renderReliabilityReport(records: Stored[], passed: boolean): string {
  const lines: string[] = [];
  const at = records.map((record) => record.at).sort()[0] ?? new Date().toISOString();
  lines.push("# Reliability drills", "");
  lines.push(
    "Darkroom's promises: no credit lost or double-spent, no terminal event lost or doubled, no account seeing another's data. " +
      "Each drill below is a test in `tests/reliability/`; `npm run test:reliability` runs them at full size against the built app on a fresh database and rewrites this page, " +
      "and `npm test` runs the same drills at a reduced size.",
    "",
  );
  lines.push(
    `Run of ${at.slice(0, 10)} on ${os.type()} ${os.arch()}, ${os.cpus().length} cores, Node ${process.version}: ${passed ? "**every drill passed**" : "**the run failed** (see the test output)"}.`,
    "",
  );
  const byDrill = new Map<string, Stored[]>();
  for (const record of records) byDrill.set(record.drill, [...(byDrill.get(record.drill) ?? []), record]);
  for (const drill of [...byDrill.keys()].sort()) {
    const cases = byDrill.get(drill)!;
    lines.push(`## ${TITLES[drill] ?? drill}`, "");
    for (const record of cases) {
      lines.push(`### ${record.title}`, "");
      lines.push(`Size ${record.size}, ${seconds(record.durationMs)}.`, "");
      lines.push("| figure | value |", "|---|---|");
      for (const [name, value] of Object.entries(record.figures)) lines.push(`| ${name} | ${String(value)} |`);
      lines.push("");
      if (record.checked.length) {
        lines.push("Checked:", "");
        for (const check of record.checked) lines.push(`- ${check}`);
        lines.push("");
      }
    }
  }
  if (records.length === 0) lines.push("No drill recorded anything in this run.", "");
  return lines.join("\n");
}

/** Writes the page; returns how many records it holds. */
export function writeReliabilityReport(resultsDir: string, target: string, passed: boolean): number {
  const records = readRecords(resultsDir);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, renderReliabilityReport(records, passed));
  return records.length;
}
