import { ESLint } from "eslint";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { floorOf, folderOf } from "@/scripts/floors.mjs";

// The floors rule runs in `npm run lint` (eslint.config.mjs): ESLint itself, on the repository's
// configuration, refuses a module that imports a floor above its own. The floor is the first path
// segment under server/ (scripts/floors.mjs).

const root = path.resolve(import.meta.dirname, "../../..");
const eslint = new ESLint({ cwd: root });

async function floorFindings(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === "floors/no-climbing-imports").map((message) => message.message);
}

describe("the floor of a path", () => {
  it.each([
    ["server/base/env.ts", "base"],
    ["server/base/events/client.ts", "base"],
    ["server/keys/create-key.ts", "domains"],
    ["server/edge/contract/index.ts", "edge"],
    ["server/edge/http/with-api-key.ts", "edge"],
    ["server/jobs/executor/executor.ts", "jobs"],
    ["server/start/cli/main.ts", "start"],
  ])("%s is on the %s floor", (serverPath, floor) => {
    expect(floorOf(serverPath)?.name).toBe(floor);
  });

  it("counts arrows between domains, and between the folders inside a floor", () => {
    expect(folderOf("server/keys/scopes.ts")).toBe("server/keys");
    expect(folderOf("server/base/events/client.ts")).toBe("server/base/events");
    expect(folderOf("server/base/env.ts")).toBe("server/base/env");
  });
});

describe("floors/no-climbing-imports", () => {
  it.each([
    [
      "server/keys/example.ts",
      'import { errorResponse } from "../edge/http/envelope";\nexport const x = errorResponse;\n',
      "server/edge/http/envelope",
    ],
    [
      "server/credits/example.ts",
      'import { appRouter } from "@/server/edge/api/root";\nexport const x = appRouter;\n',
      "server/edge/api/root",
    ],
    ["server/generations/example.ts", 'export * from "../jobs/functions";\n', "server/jobs/functions"],
    ["server/webhooks/example.ts", 'export const load = () => import("../start/boot");\n', "server/start/boot"],
    ["server/base/log.ts", 'import { db } from "../keys/key-cache";\nexport const x = db;\n', "server/keys/key-cache"],
    [
      "server/edge/http/example.ts",
      'import { functions } from "../../jobs/functions";\nexport const x = functions;\n',
      "server/jobs/functions",
    ],
  ])("refuses %s importing a floor above", async (filePath, code, target) => {
    const findings = await floorFindings(filePath, code);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain(target);
  });

  it.each([
    ["server/keys/example.ts", 'import { db } from "../base/db";\nimport { log } from "@/server/base/log";\nexport const x = [db, log];\n'],
    [
      "server/edge/http/example.ts",
      'import { createApiKey } from "../../keys/create-key";\nimport { common } from "../contract/common";\nexport const x = [createApiKey, common];\n',
    ],
    ["server/start/example.ts", 'import { functions } from "../jobs/functions";\nexport const x = functions;\n'],
  ])("lets %s import its own floor and those below", async (filePath, code) => {
    expect(await floorFindings(filePath, code)).toEqual([]);
  });
});
