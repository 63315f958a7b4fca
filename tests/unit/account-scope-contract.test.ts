import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findOptionalAccountArguments, inMemoryProgram, projectProgram } from "@/tests/support/optional-account-arguments";

// "The workspace is always passed": no exported domain function may take an account
// argument its caller could leave out, since leaving it out used to turn the ownership check off.

const root = path.resolve(import.meta.dirname, "../..");

/** Transport, wiring and generated code: they pass a scope, they do not own account data. */
const NOT_DOMAIN = [
  "server/base/generated",
  "server/edge/api",
  "server/start/cli",
  "server/edge/http",
  "server/start",
  "server/jobs/executor",
];

function domainFiles(): string[] {
  return readdirSync(path.join(root, "server"), { recursive: true, encoding: "utf8" })
    .map((file) => `server/${file.split(path.sep).join("/")}`)
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts"))
    .filter((file) => !NOT_DOMAIN.some((folder) => file.startsWith(`${folder}/`)))
    .map((file) => path.join(root, file));
}

describe("account scope contract", () => {
  it("names every omittable account argument in a deliberately bad source, and nothing in a good one", () => {
    const program = inMemoryProgram({
      "scope.ts": "export type AccountScope = { accountId: string } | { operator: true };",
      "bad.ts": [
        'import type { AccountScope } from "@/tests/unit/scope";',
        "export function findThing(db: unknown, id: string, accountId?: string) { return id; }",
        "export type UpdateThingInput = { thingId: string; accountId?: string };",
        "export async function updateThing(tx: unknown, input: UpdateThingInput) { return input; }",
        "export const sweepThings = (options: { scope?: AccountScope; limit?: number } = {}) => options;",
        "export function listThings(account: string | undefined) { return account; }",
        "export function dropThing({ accountId }: { accountId: string | undefined }) { return accountId; }",
        "function findQuietly(id: string, scope?: AccountScope) { return [id, scope]; }",
        "export const findLater = findQuietly;",
      ].join("\n"),
      "good.ts": [
        'import type { AccountScope } from "@/tests/unit/scope";',
        "export function findThing(db: unknown, scope: AccountScope, id: string) { return [scope, id]; }",
        "export async function updateThing(tx: unknown, input: { thingId: string; accountId: string; limit?: number }) { return input; }",
        "export function formatCredits(millis: number) { return String(millis); }",
        "function notExported(accountId?: string) { return accountId; }",
        "export const count = notExported.length;",
      ].join("\n"),
    });
    expect(findOptionalAccountArguments(program, ["/memory/bad.ts", "/memory/good.ts"], "/memory").sort()).toEqual(
      [
        "bad.ts: findThing(accountId?)",
        "bad.ts: updateThing(input.accountId?)",
        "bad.ts: sweepThings(options.scope?)",
        "bad.ts: listThings(account?)",
        "bad.ts: dropThing({ accountId }.accountId?)",
        "bad.ts: findLater(scope?)",
      ].sort(),
    );
  });

  it("finds no exported domain function in server/ with an optional account argument", () => {
    const files = domainFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(findOptionalAccountArguments(projectProgram(files, root), files, root)).toEqual([]);
  }, 120_000);
});
