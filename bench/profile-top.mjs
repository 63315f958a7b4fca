import fs from "node:fs";

// The top entries of a V8 CPU profile (`BENCH_CPU_PROF`'s .cpuprofile): self time by function
// and by where the code lives (a package under node_modules, a Next chunk, our own file), and the
// inclusive time of the functions that took the most, each as a share of the non-idle samples.
// `node bench/profile-top.mjs <file.cpuprofile> [entries] [--from <µs> --to <µs>]`: with a window
// (CLOCK_MONOTONIC microseconds, as the remote row set prints `profile_window_us`), only the
// samples inside it. The last list gives each sample to the nearest named function of our own code
// on its stack; build with NEXT_UNMINIFIED=1 for the names (docs/benchmarking.md).

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? null : Number(args.splice(at, 2)[1]);
};
const from = option("--from") ?? -Infinity;
const to = option("--to") ?? Infinity;
const [file, count = "25"] = args;
if (!file) throw new Error("usage: node bench/profile-top.mjs <file.cpuprofile> [entries]");
const profile = JSON.parse(fs.readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const self = new Map();
const deltas = profile.timeDeltas;
let at = profile.startTime;
for (let index = 0; index < profile.samples.length; index += 1) {
  at += deltas[index] ?? 0;
  if (at < from || at > to) continue;
  const id = profile.samples[index];
  self.set(id, (self.get(id) ?? 0) + (deltas[index + 1] ?? 0));
}
const where = (url) => {
  if (!url) return "(native)";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const chunk = /\.next\/server\/(.*)$/.exec(url);
  if (chunk) return `.next/${chunk[1].replace(/\/[^/]*$/, "")}`;
  if (url.startsWith("node:")) return url;
  return url.replace(/^file:\/\//, "").replace(/^.*?\/(server|scripts|app)\//, "$1/");
};
const label = (node) => `${node.callFrame.functionName || "(anonymous)"} ${where(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
let total = 0;
const byFunction = new Map();
const byPlace = new Map();
const inclusive = new Map();
const byOwnFunction = new Map();
// A named function of the app's own code (Next's server chunks, the boot script), as an unminified
// build keeps the names (NEXT_UNMINIFIED=1): a sample counts for the nearest one on its stack, so
// library and runtime time lands on the function of ours that asked for it.
const isOwn = (node) =>
  /\/\.next\/server\/|\/\.build\//.test(node.callFrame.url) &&
  node.callFrame.functionName.length > 2 &&
  !node.callFrame.functionName.startsWith("(");
for (const [id, us] of self) {
  const node = nodes.get(id);
  if (node.callFrame.functionName === "(idle)") continue;
  total += us;
  const name = label(node);
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  const place = node.callFrame.functionName.startsWith("(") ? node.callFrame.functionName : where(node.callFrame.url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  let own = parent.get(id) === undefined ? undefined : id;
  while (own !== undefined && !isOwn(nodes.get(own))) own = parent.get(own);
  const ownName = own === undefined ? "(no function of ours on the stack: a callback from the runtime)" : label(nodes.get(own));
  byOwnFunction.set(ownName, (byOwnFunction.get(ownName) ?? 0) + us);
  const seen = new Set();
  for (let cursor = id; cursor !== undefined; cursor = parent.get(cursor)) {
    const ancestor = label(nodes.get(cursor));
    if (seen.has(ancestor)) continue;
    seen.add(ancestor);
    inclusive.set(ancestor, (inclusive.get(ancestor) ?? 0) + us);
  }
}
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`)
    .join("\n");
console.log(
  `non-idle: ${(total / 1000).toFixed(0)} ms\n\n# self time by place\n${top(byPlace, Number(count))}\n\n# self time by function\n${top(byFunction, Number(count))}\n\n# inclusive time\n${top(inclusive, Number(count) * 2)}\n\n# by the nearest function of ours on the stack\n${top(byOwnFunction, Number(count))}`,
);
