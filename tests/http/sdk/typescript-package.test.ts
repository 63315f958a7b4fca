import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { disconnectDb } from "@/server/base/db";
import { accountWithKey } from "@/tests/support/fixtures";
import { baseUrl } from "@/tests/support/http";

// @darkroom/client as a user gets it: built with tsc, packed with `npm pack`, installed from the
// tarball into a scratch project (no dependencies, so `npm install --offline` works), then used
// there from plain JavaScript against this run's app and type-checked from a TypeScript consumer.

const root = path.resolve(import.meta.dirname, "../../..");
const sdkDir = path.join(root, "sdk/typescript");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 240_000 });
  expect(result.status, `${command} ${args.join(" ")}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

afterAll(async () => {
  await disconnectDb();
});

it("packs into a tarball that installs offline into a scratch project and works there", async () => {
  const { key, accountId } = await accountWithKey();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-sdk-ts-"));
  try {
    run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], sdkDir);
    const packed = JSON.parse(run(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], sdkDir)) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    const tarball = path.join(scratch, packed[0]?.filename as string);
    const files = packed[0]?.files.map((file) => file.path) ?? [];
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/generated/types.d.ts",
        "dist/generated/operations.js",
      ]),
    );
    expect(files.filter((file) => file.startsWith("src/"))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(sdkDir, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.dependencies ?? {}).toEqual({});

    const project = path.join(scratch, "project");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
    run(npm, ["install", "--offline", "--no-audit", "--no-fund", tarball], project);
    expect(fs.readdirSync(path.join(project, "node_modules")).filter((name) => !name.startsWith("."))).toEqual(["@darkroom"]);

    fs.writeFileSync(
      path.join(project, "use.mjs"),
      `import { Darkroom, AuthenticationError, NotFoundError, verifyWebhook } from "@darkroom/client";
const darkroom = new Darkroom({ apiKey: process.env.KEY, baseUrl: process.env.BASE });
const status = await darkroom.status();
const models = await darkroom.library.models();
const created = await darkroom.generate.image("darkroom/lumen-image", { generation_prompt: "from a tarball" }, { wait: { timeoutMs: 60000 } });
const refused = await new Darkroom({ apiKey: "dkr_nope", baseUrl: process.env.BASE }).status().catch((error) => error);
const missing = await darkroom.generations.get("00000000-0000-4000-8000-000000000000").catch((error) => error);
console.log(JSON.stringify({
  account: status.account_id,
  requestId: status.lastResponse.requestId,
  models: models.models.length > 0,
  generation: created.generation_record.generation_status,
  refused: refused instanceof AuthenticationError && refused.code,
  missing: missing instanceof NotFoundError && missing.code,
  verify: typeof verifyWebhook,
}));
`,
    );
    const output = JSON.parse(
      run(process.execPath, ["use.mjs"], project, { ...process.env, KEY: key, BASE: `${baseUrl()}/v1` }).trim(),
    ) as Record<string, unknown>;
    expect(output).toEqual({
      account: accountId,
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      models: true,
      generation: "succeeded",
      refused: "ERR1002",
      missing: "ERR1006",
      verify: "function",
    });

    // The declarations serve a strict TypeScript consumer with NodeNext resolution.
    fs.writeFileSync(
      path.join(project, "consumer.ts"),
      `import { Darkroom, type GenerationRecord, type WithResponse, type KeyStatus } from "@darkroom/client";
const darkroom = new Darkroom({ apiKey: "dkr_x" });
export async function use(): Promise<[WithResponse<KeyStatus>, GenerationRecord]> {
  const created = await darkroom.generate.video("darkroom/lumen-video", { generation_prompt: "p", generation_duration: 2 });
  const prediction: string | null = created.generation_prediction_id;
  void prediction;
  return [await darkroom.status(), await darkroom.generations.wait(created.generation_id)];
}
// @ts-expect-error generation_duration is required for this model
export const missing = () => darkroom.generate.video("darkroom/lumen-video", { generation_prompt: "p" });
// A stream's events are typed by name, from the document's event list.
export async function watch(id: string): Promise<string | null> {
  for await (const event of darkroom.generations.stream(id)) {
    if (event.event === "generation.attempt") return event.data.outcome;
    if (event.event === "generation.canceled") return String(event.data.credits_refunded_amount);
    // @ts-expect-error a generation's own stream sends no generation.created
    if (event.event === "generation.created") return null;
  }
  return null;
}
`,
    );
    const compilerOptions = {
      noEmit: true,
      strict: true,
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2022",
      lib: ["es2022", "dom"],
      types: [],
    };
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
    run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], project);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
