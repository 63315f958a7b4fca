import path from "node:path";
import ts from "typescript";

// Reads exported functions with the TypeScript checker and names every account argument a caller
// could leave out: the contract behind "the workspace is always passed".

const ACCOUNT_PARAMETERS = new Set(["accountId", "scope", "account"]);
const ACCOUNT_PROPERTIES = ["accountId", "scope"];

function mayBeUndefined(type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((part) => (part.flags & ts.TypeFlags.Undefined) !== 0);
}

function optionalProperty(checker: ts.TypeChecker, type: ts.Type, name: string): boolean {
  const parts = checker.getNonNullableType(type);
  return (parts.isUnion() ? parts.types : [parts]).some((part) => {
    const property = (part.flags & ts.TypeFlags.Object) !== 0 || part.isIntersection() ? checker.getPropertyOfType(part, name) : undefined;
    return (
      property !== undefined && ((property.flags & ts.SymbolFlags.Optional) !== 0 || mayBeUndefined(checker.getTypeOfSymbol(property)))
    );
  });
}

function optionalAccountParameters(checker: ts.TypeChecker, signature: ts.Signature): string[] {
  const found: string[] = [];
  for (const parameter of signature.getParameters()) {
    const declaration = parameter.valueDeclaration;
    if (!declaration || !ts.isParameter(declaration)) continue;
    const type = checker.getTypeOfSymbolAtLocation(parameter, declaration);
    const label = ts.isIdentifier(declaration.name) ? declaration.name.text : declaration.name.getText();
    if (ACCOUNT_PARAMETERS.has(label) && (checker.isOptionalParameter(declaration) || mayBeUndefined(type))) found.push(`${label}?`);
    for (const name of ACCOUNT_PROPERTIES) if (optionalProperty(checker, type, name)) found.push(`${label}.${name}?`);
  }
  return found;
}

/** `file: function(argument?)` for each exported function of `files` with an omittable account. */
export function findOptionalAccountArguments(program: ts.Program, files: string[], root = process.cwd()): string[] {
  const checker = program.getTypeChecker();
  const findings: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!source || !moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      // Re-exports are checked where they are declared.
      if (!(symbol.flags & ts.SymbolFlags.Value) || !symbol.declarations?.some((declaration) => declaration.getSourceFile() === source))
        continue;
      for (const signature of checker.getTypeOfSymbolAtLocation(symbol, source).getCallSignatures()) {
        for (const argument of optionalAccountParameters(checker, signature))
          findings.push(`${path.relative(root, file)}: ${exported.name}(${argument})`);
      }
    }
  }
  return [...new Set(findings)];
}

/** A program over the project's own files, with its tsconfig's compiler options. */
export function projectProgram(files: string[], root = process.cwd()): ts.Program {
  const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram(files, { ...options, noEmit: true, incremental: false });
}

/** A program over sources held in memory (`name → text`), for checking the checker. */
export function inMemoryProgram(sources: Record<string, string>, root = "/memory"): ts.Program {
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const files = new Map(Object.entries(sources).map(([name, text]) => [path.join(root, name), text]));
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    return text === undefined ? getSourceFile.call(host, name, language, ...rest) : ts.createSourceFile(name, text, language);
  };
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  return ts.createProgram([...files.keys()], options, host);
}
