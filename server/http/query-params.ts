import { invalidRequest } from "./errors";

// Query bounds answer ERR1001 naming the parameter (ARCHITECTURE §4).

export function integerParam(query: URLSearchParams, name: string, options: { default: number; min: number; max?: number }): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return options.default;
  if (!/^-?\d+$/.test(raw.trim())) throw invalidRequest(`${name} must be an integer.`, [{ field: name, message: "must be an integer" }]);
  const value = Number(raw);
  const bounds = options.max === undefined ? `at least ${options.min}` : `between ${options.min} and ${options.max}`;
  if (value < options.min || (options.max !== undefined && value > options.max)) {
    throw invalidRequest(`${name} must be ${bounds}.`, [{ field: name, message: `must be ${bounds}` }]);
  }
  return value;
}
