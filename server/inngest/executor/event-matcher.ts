import type { EventPayload, FunctionTrigger } from "./types";

// The expressions of triggers (`if`, variable `event`) and of waitForEvent (`if`/`match`,
// variables `event` for the run's trigger and `async` for the candidate). Inngest speaks CEL; this
// is the subset Darkroom's functions use: paths, string/number/boolean/null literals, == != < <= >
// >=, &&, ||, ! and parentheses. Anything else fails to compile and never matches.

type Vars = Record<string, unknown>;
type Node = (vars: Vars) => unknown;
type Token = { kind: "op" | "str" | "num" | "ident"; text: string; value?: unknown };

const tokenPattern = /\s*(?:(\d+(?:\.\d+)?)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(&&|\|\||==|!=|<=|>=|[<>!().[\]])|([A-Za-z_][A-Za-z0-9_]*))/y;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  tokenPattern.lastIndex = 0;
  while (tokenPattern.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(tokenPattern.lastIndex))) break;
    const match = tokenPattern.exec(source);
    if (!match) throw new Error(`unsupported expression near "${source.slice(tokenPattern.lastIndex)}"`);
    const [, num, str, op, ident] = match;
    if (num !== undefined) tokens.push({ kind: "num", text: num, value: Number(num) });
    else if (str !== undefined) tokens.push({ kind: "str", text: str, value: str.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c)) });
    else if (op !== undefined) tokens.push({ kind: "op", text: op });
    else if (ident !== undefined) tokens.push({ kind: "ident", text: ident });
  }
  return tokens;
}

function compare(op: string, left: unknown, right: unknown): boolean {
  if (left === undefined || right === undefined) return false;
  if (op === "==") return JSON.stringify(left) === JSON.stringify(right);
  if (op === "!=") return JSON.stringify(left) !== JSON.stringify(right);
  const sameKind = (typeof left === "number" && typeof right === "number") || (typeof left === "string" && typeof right === "string");
  if (!sameKind) return false;
  const [a, b] = [left as number | string, right as number | string];
  return op === "<" ? a < b : op === "<=" ? a <= b : op === ">" ? a > b : a >= b;
}

function parse(tokens: Token[]): Node {
  let index = 0;
  const peek = () => tokens[index];
  const take = (text?: string) => {
    const token = tokens[index];
    if (!token || (text !== undefined && token.text !== text)) throw new Error(`expected ${text ?? "a value"} at token ${index + 1}`);
    index += 1;
    return token;
  };

  const primary = (): Node => {
    const token = take();
    if (token.kind === "op" && token.text === "(") {
      const inner = or();
      take(")");
      return inner;
    }
    if (token.kind === "str" || token.kind === "num") return () => token.value;
    if (token.kind === "ident") {
      if (token.text === "true" || token.text === "false") return () => token.text === "true";
      if (token.text === "null") return () => null;
      const path: Array<string | number> = [];
      while (peek()?.text === "." || peek()?.text === "[") {
        if (take().text === ".") path.push(take().text);
        else {
          const key = take();
          if (key.kind !== "str" && key.kind !== "num") throw new Error("index must be a literal");
          path.push(key.value as string | number);
          take("]");
        }
      }
      const root = token.text;
      return (vars) => path.reduce<unknown>((value, key) => (value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined), vars[root]);
    }
    throw new Error(`unexpected "${token.text}"`);
  };
  const comparison = (): Node => {
    const left = primary();
    const op = peek();
    if (op?.kind === "op" && ["==", "!=", "<", "<=", ">", ">="].includes(op.text)) {
      index += 1;
      const right = primary();
      return (vars) => compare(op.text, left(vars), right(vars));
    }
    return left;
  };
  const unary = (): Node => {
    if (peek()?.text === "!") {
      index += 1;
      const inner = unary();
      return (vars) => !inner(vars);
    }
    return comparison();
  };
  const and = (): Node => {
    let node = unary();
    while (peek()?.text === "&&") {
      index += 1;
      const [left, right] = [node, unary()];
      node = (vars) => Boolean(left(vars)) && Boolean(right(vars));
    }
    return node;
  };
  const or = (): Node => {
    let node = and();
    while (peek()?.text === "||") {
      index += 1;
      const [left, right] = [node, and()];
      node = (vars) => Boolean(left(vars)) || Boolean(right(vars));
    }
    return node;
  };

  const root = or();
  if (index !== tokens.length) throw new Error(`unexpected "${tokens[index]?.text}"`);
  return root;
}

const compiled = new Map<string, Node | Error>();

/** Compiles (once) and evaluates an expression; an expression that does not compile throws. */
export function evaluateExpression(source: string, vars: Vars): boolean {
  let node = compiled.get(source);
  if (!node) {
    try {
      node = parse(tokenize(source));
    } catch (error) {
      node = error instanceof Error ? error : new Error(String(error));
    }
    compiled.set(source, node);
  }
  if (node instanceof Error) throw new Error(`expression "${source}": ${node.message}`);
  return Boolean(node(vars));
}

/** Event names match exactly, or by prefix for a trailing "*" ("app/*"). */
export function eventNameMatches(pattern: string, name: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/** Whether an event starts a run of a function with this trigger. */
export function triggerMatches(trigger: FunctionTrigger, event: EventPayload): boolean {
  if (!("event" in trigger) || !eventNameMatches(trigger.event, event.name)) return false;
  return trigger.expression ? evaluateExpression(trigger.expression, { event }) : true;
}
