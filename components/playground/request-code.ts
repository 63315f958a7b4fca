// "Copy as code": exactly the request the form holds, as curl, the TypeScript SDK (sdk/typescript)
// and the Python SDK (sdk/python), with the key left as a placeholder the reader fills in. Pure,
// so the page and the unit tests build the same text.

export type RunRequestShape = {
  /** The deployment's address, without /v1 (regionBaseUrls). */
  baseUrl: string;
  kind: "image" | "video";
  modelIdentifier: string;
  body: Record<string, unknown>;
};

export type CodeLanguage = "curl" | "typescript" | "python";

export const codeLanguages: Array<{ id: CodeLanguage; label: string }> = [
  { id: "curl", label: "cURL" },
  { id: "typescript", label: "TypeScript" },
  { id: "python", label: "Python" },
];

/** What a reader replaces; curl reads it from the environment, the SDKs read DARKROOM_API_KEY themselves. */
export const KEY_PLACEHOLDER = "$DARKROOM_API_KEY";

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

export function requestCode(language: CodeLanguage, request: RunRequestShape): string {
  const base = request.baseUrl.replace(/\/+$/, "");
  const url = `${base}/v1/generate/${request.kind}/${request.modelIdentifier}`;
  switch (language) {
    case "curl":
      return [
        `curl -s -X POST ${shellQuote(url)} \\`,
        `  -H "Authorization: Bearer ${KEY_PLACEHOLDER}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -H "Prefer: wait" \\`,
        `  -d ${shellQuote(JSON.stringify(request.body))}`,
      ].join("\n");
    case "typescript":
      return [
        `import { Darkroom } from "@darkroom/client";`,
        ``,
        `// The key is read from DARKROOM_API_KEY.`,
        `const darkroom = new Darkroom({ baseUrl: ${JSON.stringify(`${base}/v1`)} });`,
        ``,
        `const created = await darkroom.generate.${request.kind}(${JSON.stringify(request.modelIdentifier)}, ${JSON.stringify(request.body, null, 2)}, { wait: true });`,
        `console.log(created.generation_record?.generation_output_file);`,
      ].join("\n");
    case "python":
      return [
        `from darkroom import Darkroom`,
        ``,
        `# The key is read from DARKROOM_API_KEY.`,
        `client = Darkroom(base_url=${JSON.stringify(`${base}/v1`)})`,
        ``,
        `created = client.generate.${request.kind}(${JSON.stringify(request.modelIdentifier)}, ${pythonLiteral(request.body, 0)}, wait=True)`,
        `print(created["generation_record"]["generation_output_file"])`,
      ].join("\n");
  }
}

/** A JSON value as Python source: True/False/None, strings in JSON's escapes (valid Python too). */
function pythonLiteral(value: unknown, depth: number): string {
  const indent = "    ".repeat(depth + 1);
  const closing = "    ".repeat(depth);
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => pythonLiteral(item, depth + 1)).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${indent}${JSON.stringify(key)}: ${pythonLiteral(item, depth + 1)},`).join("\n")}\n${closing}}`;
}
