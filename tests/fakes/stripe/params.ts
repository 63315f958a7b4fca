import { invalidRequest, missingParam } from "@/tests/fakes/stripe/stripe-errors";
import type { FormValue, Params } from "@/tests/fakes/stripe/form";

// Typed reads of decoded form parameters, failing the way Stripe does (`Invalid integer: abc`).

export function optionalString(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw invalidRequest(`Invalid string: ${JSON.stringify(value)}`, { param: name });
  return value;
}

export function requiredString(params: Params, name: string): string {
  const value = optionalString(params, name);
  if (value === undefined || value === "") throw missingParam(name);
  return value;
}

export function optionalInteger(params: Params, name: string): number | undefined {
  const value = optionalString(params, name);
  if (value === undefined || value === "") return undefined;
  if (!/^-?\d+$/.test(value)) throw invalidRequest(`Invalid integer: ${value}`, { param: name });
  return Number(value);
}

export function optionalBoolean(params: Params, name: string): boolean | undefined {
  const value = optionalString(params, name);
  if (value === undefined || value === "") return undefined;
  if (value !== "true" && value !== "false") throw invalidRequest(`Invalid boolean: ${value}`, { param: name });
  return value === "true";
}

export function optionalObject(params: Params, name: string): Params | undefined {
  const value = params[name];
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw invalidRequest(`Invalid object`, { param: name });
  return value;
}

export function optionalList(params: Params, name: string): FormValue[] | undefined {
  const value = params[name];
  if (value === undefined || value === "") return undefined;
  if (!Array.isArray(value)) throw invalidRequest(`Invalid array`, { param: name });
  return value;
}

export function stringList(params: Params, name: string): string[] | undefined {
  const list = optionalList(params, name);
  if (!list) return undefined;
  return list.map((item, index) => {
    if (typeof item !== "string") throw invalidRequest("Invalid string", { param: `${name}[${index}]` });
    return item;
  });
}

export type Metadata = Record<string, string>;

/** Stripe merges metadata keys on update; an empty value unsets a key and `metadata=` clears them all. */
export function mergeMetadata(current: Metadata, params: Params, name = "metadata"): Metadata {
  const value = params[name];
  if (value === undefined) return current;
  if (value === "") return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidRequest("Invalid object", { param: name });
  const merged = { ...current };
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== "string") throw invalidRequest("Invalid string", { param: `${name}[${key}]` });
    if (item === "") delete merged[key];
    else merged[key] = item;
  }
  return merged;
}
