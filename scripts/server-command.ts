import fs from "node:fs";
import path from "node:path";

// How `npm start` runs the server, for the bench (and anything else that must measure or start it
// the same way): plain node on the compiled entry, which compiles itself first when stale, with
// the settings of package.json's start script (read from it, so the two cannot drift):
// MALLOC_ARENA_MAX=1, so glibc's malloc keeps one arena instead of one per thread that allocates
// (libvips's, libuv's and V8's workers): with 2 (about 30 MB less idle RSS than the default,
// throughput ratios unchanged) the second arena still held ~20-26 MB that V8's background
// compilation of Prisma's wasm query compiler had freed; 1 gave ~20 MB less idle RSS again.

const root = path.resolve(import.meta.dirname, "..");

export function serverCommand(): { args: string[]; env: Record<string, string> } {
  const start: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  const words = start.split(/\s+/).filter(Boolean);
  const env: Record<string, string> = {};
  while (words[0]?.includes("=")) {
    const [name, value] = words.shift()!.split("=") as [string, string];
    env[name] = value;
  }
  if (words.shift() !== "node") throw new Error(`package.json's start script is not "node …": ${start}`);
  return { args: words.map((word) => (word.startsWith("-") ? word : path.join(root, word))), env };
}
