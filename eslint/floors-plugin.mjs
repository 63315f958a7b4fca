import path from "node:path";
import { fileURLToPath } from "node:url";
import { floorOf } from "../scripts/floors.mjs";

// `floors/no-climbing-imports`: a module under server/ may import its own floor and the floors
// below it, never one above. The floor is the first path segment under server/ (base, edge, jobs,
// start; any other folder is a domain): the table and its reasons are in scripts/floors.mjs and
// docs/architecture.md. Static imports, re-exports and import() with a literal path, relative or
// through "@/".

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function serverPathOf(file) {
  const relative = path.relative(root, file).split(path.sep).join("/");
  return relative.startsWith("server/") ? relative : null;
}

function resolveSpecifier(fromFile, specifier) {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith("./") || specifier.startsWith("../"))
    return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  return null;
}

const noClimbingImports = {
  meta: {
    type: "problem",
    docs: { description: "A server module imports only its own floor and the floors below it" },
    messages: {
      climbs:
        "{{from}} is on the {{fromFloor}} floor and may not import {{to}} on the {{toFloor}} floor above it: move the code down, or let the caller pass it in (docs/architecture.md).",
    },
    schema: [],
  },
  create(context) {
    const file = serverPathOf(context.filename);
    const own = file ? floorOf(file) : null;
    if (!own) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== "string") return;
      const target = resolveSpecifier(file, source.value);
      if (!target || !target.startsWith("server/") || target.startsWith("server/base/generated")) return;
      const floor = floorOf(target.split("/").length === 2 ? `${target}.ts` : target);
      if (floor && floor.level > own.level) {
        context.report({ node, messageId: "climbs", data: { from: file, fromFloor: own.name, to: target, toFloor: floor.name } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === "Literal" ? node.source : null),
    };
  },
};

const floorsPlugin = { rules: { "no-climbing-imports": noClimbingImports } };

export default floorsPlugin;
