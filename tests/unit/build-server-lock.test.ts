import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// scripts/build-server.mjs builds one at a time across processes: `npm run cli` and `npm start`
// rebuild .build/ when a source changed, and several may start at once; a server started from an
// earlier build keeps importing that build's chunks. Run on a copy of the script in a scratch
// repository (stub entries, the real esbuild), never on the suite's own .build/.

const root = path.resolve(import.meta.dirname, "../..");
let scratch: string;

function writeSource(relative: string, text: string) {
  const file = path.join(scratch, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** `buildServer()` in a process of its own; resolves to whether it compiled. */
function buildInChild(): Promise<boolean> {
  const script = `import { buildServer } from ${JSON.stringify(path.join(scratch, "scripts", "build-server.mjs"))}; console.log(await buildServer());`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("close", (code) => (code === 0 ? resolve(out.trim() === "true") : reject(new Error(`build exited ${code}: ${err}`))));
  });
}

const lockFile = () => path.join(scratch, ".build.lock");
const chunks = () => fs.readdirSync(path.join(scratch, ".build")).filter((name) => name.startsWith("start-chunk-"));
const chunkHolding = (text: string) => chunks().find((name) => fs.readFileSync(path.join(scratch, ".build", name), "utf8").includes(text));
const run = (entry: string) => spawnSync(process.execPath, [path.join(scratch, ".build", entry)], { encoding: "utf8" }).stdout.trim();

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-build-lock-"));
  writeSource("scripts/build-server.mjs", fs.readFileSync(path.join(root, "scripts", "build-server.mjs"), "utf8"));
  writeSource(
    "scripts/start.ts",
    [
      'import { shared } from "../server/shared";',
      "console.log(`start ${shared}`);",
      // `lazy`: like the server's lazy imports, one module loaded only when first needed (on a line).
      'if (process.argv[2] === "lazy") {',
      '  await new Promise((resolve) => process.stdin.once("data", resolve));',
      '  console.log((await import("../server/lazy")).lazy);',
      "  process.stdin.destroy();",
      "}",
      "",
    ].join("\n"),
  );
  writeSource("server/lazy.ts", 'export const lazy = "lazy one";\n');
  writeSource("server/start/cli/main.ts", 'import { shared } from "../../shared";\nconsole.log(`cli ${shared}`);\n');
  writeSource("server/shared.ts", 'export const shared = "one";\n');
  writeSource("package.json", '{ "type": "module" }\n');
  writeSource("tsconfig.json", "{}\n");
  fs.symlinkSync(path.join(root, "node_modules"), path.join(scratch, "node_modules"));
});

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("buildServer across processes", () => {
  it("compiles once when four processes find the sources changed at the same time", async () => {
    const compiled = await Promise.all([buildInChild(), buildInChild(), buildInChild(), buildInChild()]);
    expect(compiled.filter(Boolean)).toHaveLength(1);
    expect(run("start.mjs")).toBe("start one");
    expect(run("cli.mjs")).toBe("cli one");
    expect(fs.existsSync(lockFile())).toBe(false);

    // A later change is built again, once.
    writeSource("server/shared.ts", 'export const shared = "two";\n');
    expect((await Promise.all([buildInChild(), buildInChild()])).filter(Boolean)).toHaveLength(1);
    expect(run("cli.mjs")).toBe("cli two");
  });

  it("takes over a lock whose process is gone", async () => {
    const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    fs.writeFileSync(lockFile(), gone.stdout.trim());
    writeSource("server/shared.ts", 'export const shared = "three";\n');
    expect(await buildInChild()).toBe(true);
    expect(run("cli.mjs")).toBe("cli three");
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  // Each judges the lock stale; before the takeover lock, one could remove the lock another had just
  // taken over, and both compiled (about one round in three here).
  it("lets one of several processes take over a dead process's lock, and compiles once", async () => {
    for (const version of ["three-a", "three-b", "three-c"]) {
      const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
      fs.writeFileSync(lockFile(), gone.stdout.trim());
      writeSource("server/shared.ts", `export const shared = "${version}";\n`);
      const compiled = await Promise.all(Array.from({ length: 6 }, () => buildInChild()));
      expect(compiled.filter(Boolean)).toHaveLength(1);
      expect(run("cli.mjs")).toBe(`cli ${version}`);
      expect(fs.existsSync(lockFile())).toBe(false);
      expect(fs.existsSync(`${lockFile()}.takeover`)).toBe(false);
    }
  });
});

describe("chunks of an earlier build", () => {
  it("stay importable by a server started from that build after a rebuild", async () => {
    writeSource("server/shared.ts", 'export const shared = "four";\n');
    expect(await buildInChild()).toBe(true);
    const running = spawn(process.execPath, [path.join(scratch, ".build", "start.mjs"), "lazy"], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    running.stdout.on("data", (chunk) => (out += chunk));
    await expect.poll(() => out, { timeout: 10_000 }).toContain("start four");

    // The lazy module changes and .build/ is rebuilt while that server runs.
    writeSource("server/lazy.ts", 'export const lazy = "lazy two";\n');
    expect(await buildInChild()).toBe(true);
    const exited = new Promise<number | null>((resolve) => running.on("close", resolve));
    running.stdin.write("now\n");
    expect(await exited).toBe(0);
    expect(out).toContain("lazy one");
    // A server started now gets the new build.
    const fresh = spawnSync(process.execPath, [path.join(scratch, ".build", "start.mjs"), "lazy"], { input: "now\n", encoding: "utf8" });
    expect(fresh.stdout).toContain("lazy two");
  });

  it("go once no build has written them for a week", async () => {
    const earlier = chunkHolding("lazy one");
    expect(earlier).toBeDefined();
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    for (const name of chunks()) fs.utimesSync(path.join(scratch, ".build", name), eightDaysAgo, eightDaysAgo);
    writeSource("server/shared.ts", 'export const shared = "five";\n');
    expect(await buildInChild()).toBe(true);
    expect(chunks()).not.toContain(earlier);
    expect(chunkHolding("lazy two")).toBeDefined();
    const fresh = spawnSync(process.execPath, [path.join(scratch, ".build", "start.mjs"), "lazy"], { input: "now\n", encoding: "utf8" });
    expect(fresh.stdout).toBe("start five\nlazy two\n");
  });
});
