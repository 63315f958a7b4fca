// docs/benchmarks.md and its two charts, written by `npm run bench` from the run's results.

export type Figure = {
  label: string;
  value: number | null;
  unit: string;
  target: string;
  /** null: informational, no target. */
  met: boolean | null;
  note?: string;
};

export type Report = {
  measuredAt: string;
  machine: Record<string, string | number>;
  settings: Record<string, string | number>;
  figures: Figure[];
  throughput: Array<{ route: string; requestsPerS: number; ratio: number }>;
  latency: Array<{ series: string; p50: number; p90: number; p99: number }>;
};

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const fmt = (value: number | null, digits = 1) =>
  value === null || Number.isNaN(value) ? "n/a" : String(Math.round(value * 10 ** digits) / 10 ** digits);

/** Horizontal bars: requests per second per route, with the ratio to the bare route. */
export function throughputSvg(rows: Report["throughput"]): string {
  const width = 720;
  const rowHeight = 34;
  const left = 230;
  const top = 40;
  const height = top + rows.length * rowHeight + 30;
  const max = Math.max(1, ...rows.map((row) => row.requestsPerS));
  const bars = rows
    .map((row, index) => {
      const y = top + index * rowHeight;
      const length = Math.max(1, ((width - left - 150) * row.requestsPerS) / max);
      return [
        `<text x="${left - 10}" y="${y + 20}" text-anchor="end">${escape(row.route)}</text>`,
        `<rect x="${left}" y="${y + 6}" width="${length.toFixed(1)}" height="20" fill="${index === 0 ? "#9ca3af" : "#2563eb"}"/>`,
        `<text x="${(left + length + 8).toFixed(1)}" y="${y + 20}">${fmt(row.requestsPerS, 0)} req/s (${fmt(row.ratio, 2)}×)</text>`,
      ].join("");
    })
    .join("\n  ");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="13">
  <rect width="100%" height="100%" fill="#ffffff"/>
  <text x="16" y="24" font-size="15" font-weight="bold">Requests per second per route (ratio to the bare route, same run)</text>
  ${bars}
</svg>
`;
}

/** Grouped bars: create → succeeded latency percentiles per case, with the 80 / 250 ms targets. */
export function latencySvg(rows: Report["latency"]): string {
  // The last 120 px hold the target lines' labels.
  const width = Math.max(720, 220 + rows.length * 190);
  const height = 340;
  const left = 60;
  const bottom = 290;
  const top = 50;
  const max = Math.max(300, ...rows.flatMap((row) => [row.p50, row.p90, row.p99].filter(Number.isFinite)));
  const scale = (value: number) => ((bottom - top) * Math.min(value, max)) / max;
  const colors = { p50: "#2563eb", p90: "#60a5fa", p99: "#1e3a8a" } as const;
  const groupWidth = (width - left - 160) / Math.max(1, rows.length);
  const groups = rows
    .map((row, index) => {
      const x0 = left + index * groupWidth + 20;
      const bars = (["p50", "p90", "p99"] as const)
        .map((name, barIndex) => {
          const value = row[name];
          const h = Number.isFinite(value) ? scale(value) : 0;
          const x = x0 + barIndex * 46;
          return `<rect x="${x}" y="${(bottom - h).toFixed(1)}" width="40" height="${h.toFixed(1)}" fill="${colors[name]}"/><text x="${x + 20}" y="${(bottom - h - 4).toFixed(1)}" text-anchor="middle" font-size="11">${fmt(value, 0)}</text><text x="${x + 20}" y="${bottom + 14}" text-anchor="middle" font-size="11">${name}</text>`;
        })
        .join("");
      return `${bars}<text x="${x0 + 66}" y="${bottom + 32}" text-anchor="middle">${escape(row.series)}</text>`;
    })
    .join("\n  ");
  const line = (value: number, label: string) =>
    value <= max
      ? `<line x1="${left}" x2="${width - 20}" y1="${(bottom - scale(value)).toFixed(1)}" y2="${(bottom - scale(value)).toFixed(1)}" stroke="#dc2626" stroke-dasharray="4 3"/><text x="${width - 22}" y="${(bottom - scale(value) - 4).toFixed(1)}" text-anchor="end" fill="#dc2626" font-size="11">${label}</text>`
      : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="13">
  <rect width="100%" height="100%" fill="#ffffff"/>
  <text x="16" y="24" font-size="15" font-weight="bold">Create → succeeded latency (ms), one generation at a time</text>
  <line x1="${left}" x2="${width - 20}" y1="${bottom}" y2="${bottom}" stroke="#374151"/>
  ${line(80, "p50 target 80 ms")}
  ${line(250, "p99 target 250 ms")}
  ${groups}
</svg>
`;
}

export function benchmarksMarkdown(report: Report, charts: { throughput: string; latency: string }): string {
  const machine = Object.entries(report.machine)
    .map(([name, value]) => `| ${name} | ${value} |`)
    .join("\n");
  const settings = Object.entries(report.settings)
    .map(([name, value]) => `${name} ${value}`)
    .join(", ");
  const figures = report.figures
    .map(
      (figure) =>
        `| ${figure.label} | ${fmt(figure.value, 3)} ${figure.unit} | ${figure.target} | ${figure.met === null ? "(info)" : figure.met ? "met" : "**not met**"} | ${figure.note ?? ""} |`,
    )
    .join("\n");
  return `# Benchmarks

Written by \`npm run bench\` (bench/run.ts) on ${report.measuredAt}; raw figures in
[\`bench/results/latest.json\`](../bench/results/latest.json). Every throughput figure is a ratio
to the bare route measured in the same run (the \`/v1\` 404 envelope: a Next route handler with no
database and no auth), so runs on busier or quieter machines compare. The read routes' ratios are
the median of alternating slices (bare, route, bare, route, …), because this machine's speed drifts
within a minute; the chart shows the back-to-back 10 s runs. A \`/v1\` route Next has loaded is
answered by its handler without Next's router (docs/hot-path.md), while the bare route stays a
Next route handler, as the issue defines it; each read figure also gives the CPU per request of
both. The server runs as
\`npm start\` does (compiled JavaScript on plain \`node\`, embedded defaults), on a fresh database;
the load comes from this process on loopback (autocannon).

## Machine

| | |
|---|---|
${machine}

Settings: ${settings}.

## Figures against their targets

| figure | measured | target | | note |
|---|---|---|---|---|
${figures}

## Charts

![Requests per second per route](${charts.throughput})

![Create → succeeded latency percentiles](${charts.latency})
`;
}
