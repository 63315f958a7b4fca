import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/server/base/db";
import { freePort } from "@/server/start/database";
import { inTransaction } from "@/server/base/transaction";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { accountWithKey } from "@/tests/support/fixtures";
import { baseUrl } from "@/tests/support/http";

// The Python SDK (sdk/python) inside npm test: its unittest suites (the core against local servers,
// and the client against this run's app with accounts, keys and a webhook endpoint made here), and
// a wheel built with the machine's own setuptools (`pip wheel --no-build-isolation --no-index`).
// Where python3 is absent the suites are skipped with a printed notice, never silently.

const root = path.resolve(import.meta.dirname, "../../..");
const sdkDir = path.join(root, "sdk/python");

function works(command: string, args: string[]) {
  const result = spawnSync(command, args, { encoding: "utf8" });
  return result.status === 0;
}

const python =
  ["python3", "/usr/bin/python3"].find((candidate) => works(candidate, ["-c", "import sys; assert sys.version_info >= (3, 9)"])) ?? null;
// pip wheel without build isolation needs setuptools and wheel installed beside pip.
const wheelPython = ["python3", "/usr/bin/python3"].find((candidate) => works(candidate, ["-c", "import setuptools, wheel, pip"])) ?? null;
if (!python) console.warn("sdk-python: SKIPPED, python3 (>= 3.9) is not on this machine; the Python SDK was not tested");
else if (!wheelPython) console.warn("sdk-python: wheel build SKIPPED, no python3 here has setuptools, wheel and pip together");

afterAll(async () => {
  await disconnectDb();
});

describe("the Python SDK", () => {
  it.skipIf(!python)("passes its unittest suites, the live ones against this app", async () => {
    const main = await accountWithKey();
    const generations = await accountWithKey();
    const monitor = await accountWithKey({ preset: "monitor" });
    const free = await accountWithKey({ plan: "free" });
    const retry = await accountWithKey();
    const hooked = await accountWithKey();
    const streams = await accountWithKey();
    const webhookPort = await freePort();
    const endpoint = await inTransaction((tx) =>
      createWebhookEndpoint(tx, {
        accountId: hooked.accountId,
        url: `http://127.0.0.1:${webhookPort}/hooks`,
        events: ["generation.completed"],
        actor: "system",
      }),
    );
    const env = {
      ...process.env,
      PYTHONPATH: sdkDir,
      PYTHONDONTWRITEBYTECODE: "1",
      DARKROOM_TEST_BASE_URL: baseUrl(),
      DARKROOM_TEST_ACCOUNT: main.accountId,
      DARKROOM_TEST_KEY: main.key,
      DARKROOM_TEST_KEY_GENERATIONS: generations.key,
      DARKROOM_TEST_KEY_MONITOR: monitor.key,
      DARKROOM_TEST_KEY_FREE: free.key,
      DARKROOM_TEST_KEY_RETRY: retry.key,
      DARKROOM_TEST_KEY_WEBHOOK: hooked.key,
      DARKROOM_TEST_KEY_STREAMS: streams.key,
      DARKROOM_TEST_WEBHOOK_PORT: String(webhookPort),
      DARKROOM_TEST_WEBHOOK_SECRET: endpoint.secret,
    };
    const run = spawnSync(python as string, ["-m", "unittest", "discover", "-s", "tests", "-t", ".", "-v"], {
      cwd: sdkDir,
      env,
      encoding: "utf8",
      timeout: 240_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    const ran = /Ran (\d+) tests?/.exec(output);
    console.log(`sdk-python: ${python} ran ${ran?.[1] ?? "?"} unittest tests: ${/\nOK\b/.test(output) ? "OK" : "FAILED"}`);
    expect(run.status, output).toBe(0);
    expect(output).not.toMatch(/skipped/);
    expect(Number(ran?.[1])).toBeGreaterThanOrEqual(23);
  });

  it.skipIf(!wheelPython)("builds a wheel offline with the machine's setuptools, which imports and has no dependencies", () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-wheel-"));
    try {
      const source = path.join(scratch, "src");
      fs.cpSync(sdkDir, source, { recursive: true, filter: (from) => !/__pycache__|\.egg-info|[/\\]build$|[/\\]dist$/.test(from) });
      const out = path.join(scratch, "wheels");
      const built = spawnSync(
        wheelPython as string,
        ["-m", "pip", "wheel", "--no-build-isolation", "--no-index", "--no-deps", "-w", out, "."],
        { cwd: source, encoding: "utf8", timeout: 180_000 },
      );
      expect(built.status, `${built.stdout}${built.stderr}`).toBe(0);
      const wheels = fs.readdirSync(out).filter((name) => name.endsWith(".whl"));
      expect(wheels).toEqual(["darkroom-0.1.0-py3-none-any.whl"]);
      const wheel = path.join(out, wheels[0] as string);
      // A pure-Python wheel is a zip importable as is: the files, the metadata, no Requires-Dist.
      const check = spawnSync(
        wheelPython as string,
        [
          "-c",
          [
            "import sys, zipfile",
            `w = zipfile.ZipFile(${JSON.stringify(wheel)})`,
            "names = w.namelist()",
            "meta = w.read(next(n for n in names if n.endswith('METADATA'))).decode()",
            "assert 'Requires-Dist' not in meta, meta",
            "assert 'Requires-Python: >=3.9' in meta, meta",
            "for f in ('darkroom/__init__.py', 'darkroom/_generated.py', 'darkroom/py.typed'): assert f in names, names",
            `sys.path.insert(0, ${JSON.stringify(wheel)})`,
            "import darkroom",
            "assert darkroom.__file__.startswith(sys.path[0]), darkroom.__file__",
            "print(darkroom.__version__, len(darkroom.types.OPERATIONS), sorted(darkroom.types.STREAM_OPERATIONS))",
          ].join("\n"),
        ],
        { cwd: scratch, encoding: "utf8" },
      );
      expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
      expect(check.stdout.trim()).toBe("0.1.0 17 ['streamAccountEvents', 'streamGenerationEvents']");
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
