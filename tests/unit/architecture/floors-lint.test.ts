import { ESLint } from "eslint";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The floors rule runs in `npm run lint` (eslint.config.mjs): ESLint itself, on the repository's
// configuration, refuses a domain module that imports the edge, the jobs or the start.

const root = path.resolve(import.meta.dirname, "../../..");
const eslint = new ESLint({ cwd: root });

async function floorFindings(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === "floors/no-climbing-imports").map((message) => message.message);
}

describe("floors/no-climbing-imports", () => {
  it.each([
    ["server/keys/example.ts", 'import { errorResponse } from "../http/envelope";\nexport const x = errorResponse;\n', "server/http/envelope"],
    ["server/credits/example.ts", 'import { appRouter } from "@/server/api/root";\nexport const x = appRouter;\n', "server/api/root"],
    ["server/generations/example.ts", 'export * from "../inngest/functions";\n', "server/inngest/functions"],
    ["server/webhooks/example.ts", 'export const load = () => import("../start/boot");\n', "server/start/boot"],
    ["server/log.ts", 'import { db } from "./keys/key-cache";\nexport const x = db;\n', "server/keys/key-cache"],
  ])("refuses %s importing a floor above", async (filePath, code, target) => {
    const findings = await floorFindings(filePath, code);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain(target);
  });

  it.each([
    ["server/keys/example.ts", 'import { db } from "../db";\nimport { log } from "@/server/log";\nexport const x = [db, log];\n'],
    ["server/http/example.ts", 'import { createApiKey } from "../keys/create-key";\nexport const x = createApiKey;\n'],
    ["server/start/example.ts", 'import { functions } from "../inngest/functions";\nexport const x = functions;\n'],
  ])("lets %s import its own floor and those below", async (filePath, code) => {
    expect(await floorFindings(filePath, code)).toEqual([]);
  });
});
