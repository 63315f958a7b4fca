import type { OpenApiDocument } from "../../server/edge/http/openapi/build-document";
import { HEADER } from "./document";
import { pascal } from "./methods";

// The SDKs' error families, from the document's `x-error-families` and `x-error-codes` (the server's
// error table): one class per family, named alike in both languages, each code → its class, and the
// statuses that place an answer without the envelope.

export type SdkErrorFamily = { className: string; description: string; codes: Array<{ code: string; type: string }>; statuses: string[] };

export function sdkErrorFamilies(document: OpenApiDocument): SdkErrorFamily[] {
  const codes = Object.entries(document["x-error-codes"]);
  return Object.entries(document["x-error-families"]).map(([family, entry]) => ({
    className: `${pascal(family)}Error`,
    description: entry.description,
    codes: codes.filter(([, code]) => code.family === family).map(([code, { type }]) => ({ code, type })),
    statuses: [...entry.statuses],
  }));
}

/** Exact statuses in order, then ranges (`4XX`), then `default`: the order a lookup tries them. */
function statusEntries(families: SdkErrorFamily[]): Array<[string, string]> {
  const entries = families.flatMap((family) => family.statuses.map((status) => [status, family.className] as [string, string]));
  const rank = (status: string) => (status === "default" ? 2 : /X/i.test(status) ? 1 : 0);
  if (!entries.some(([status]) => status === "default")) throw new Error("x-error-families: one family must hold the `default` status");
  return entries.sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

const codeList = (family: SdkErrorFamily, quote: string) =>
  family.codes.map(({ code, type }) => `${code} ${quote}${type}${quote}`).join(", ");
const codeEntries = (families: SdkErrorFamily[]) =>
  families
    .flatMap((family) => family.codes.map(({ code }) => [code, family.className] as [string, string]))
    .sort(([a], [b]) => a.localeCompare(b));

export function typescriptErrors(families: SdkErrorFamily[]): string {
  return [
    `// ${HEADER}`,
    "",
    'import { DarkroomError, type ErrorInit } from "../darkroom-error.js";',
    "",
    ...families.flatMap((family) => [
      `/** ${family.description}${family.codes.length ? ` ${codeList(family, "`")}.` : ""} */`,
      `export class ${family.className} extends DarkroomError {}`,
      "",
    ]),
    "export type ErrorClass = new (init: ErrorInit) => DarkroomError;",
    "",
    "/** Each code of the error table → its family's class. */",
    "export const errorClassByCode: Record<string, ErrorClass> = {",
    ...codeEntries(families).map(([code, className]) => `  ${code}: ${className},`),
    "};",
    "",
    "/** An answer without the envelope: its status, else its range (`4XX`), else `default` → a family's class. */",
    "export const errorClassByStatus: Record<string, ErrorClass> & { default: ErrorClass } = {",
    ...statusEntries(families).map(([status, className]) => `  ${JSON.stringify(status)}: ${className},`),
    "};",
    "",
  ].join("\n");
}

export function pythonErrors(families: SdkErrorFamily[]): string {
  return [
    `# ${HEADER}`,
    "# fmt: off",
    '"""The error families of the error table: a class per family, each code and status to its class."""',
    "from typing import Dict, Type",
    "",
    "from ._darkroom_error import DarkroomError",
    "",
    `__all__ = [${families.map((family) => JSON.stringify(family.className)).join(", ")}]`,
    "",
    "",
    ...families.flatMap((family) => [
      `class ${family.className}(DarkroomError):`,
      `    """${family.description.replace(/`/g, "``")}${family.codes.length ? ` ${codeList(family, "``")}.` : ""}"""`,
      "",
      "",
    ]),
    "# Each code of the error table -> its family's class.",
    "ERROR_CLASS_BY_CODE: Dict[str, Type[DarkroomError]] = {",
    ...codeEntries(families).map(([code, className]) => `    ${JSON.stringify(code)}: ${className},`),
    "}",
    "",
    "# An answer without the envelope: its status, else its range (4XX), else default -> a family's class.",
    "ERROR_CLASS_BY_STATUS: Dict[str, Type[DarkroomError]] = {",
    ...statusEntries(families).map(([status, className]) => `    ${JSON.stringify(status)}: ${className},`),
    "}",
    "",
  ].join("\n");
}
