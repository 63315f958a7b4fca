import { invalidRequest } from "../base/error-table";

// API key scopes and presets. Pure data and one resolver, so the dashboard's key form can
// import it as well as the server.

export const apiKeyScopes = [
  "generation:write",
  "generation:read",
  "generation:delete",
  "account:read",
  "health:read",
  "library:read",
] as const;

export type ApiKeyScope = (typeof apiKeyScopes)[number];

export const scopePresets = {
  full: apiKeyScopes,
  generate: ["generation:write", "generation:read", "library:read"],
  read: ["generation:read", "account:read", "health:read", "library:read"],
  monitor: ["health:read", "library:read"],
} as const satisfies Record<string, readonly ApiKeyScope[]>;

export type ScopePreset = keyof typeof scopePresets;

export const scopePresetNames = Object.keys(scopePresets) as ScopePreset[];

export const scopePresetLabels: Record<ScopePreset, string> = {
  full: "Full Access",
  generate: "Generate Only",
  read: "Read Only",
  monitor: "Monitor Only",
};

/** The preset whose scope set equals `scopes` exactly (any order), or null for a custom set. */
export function presetOfScopes(scopes: readonly string[]): ScopePreset | null {
  const set = new Set(scopes);
  return (
    scopePresetNames.find((name) => scopePresets[name].length === set.size && scopePresets[name].every((scope) => set.has(scope))) ?? null
  );
}

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (apiKeyScopes as readonly string[]).includes(value);
}

export function isScopePreset(value: string): value is ScopePreset {
  return Object.hasOwn(scopePresets, value);
}

/**
 * The scope set of a new key: a preset, or a custom non-empty list; neither means Full Access.
 * The result is de-duplicated and in the canonical order of `apiKeyScopes`.
 */
export function resolveScopes(input: { preset?: string; scopes?: readonly string[] }): ApiKeyScope[] {
  const { preset, scopes } = input;
  if (preset !== undefined && scopes !== undefined) {
    throw invalidRequest("Give either a scope preset or a list of scopes, not both.", [
      { field: "scopes", message: "cannot be combined with preset" },
    ]);
  }
  if (scopes !== undefined) {
    const unknown = scopes.filter((scope) => !isApiKeyScope(scope));
    if (unknown.length > 0) {
      throw invalidRequest(`Unknown scope: ${unknown.join(", ")}. Known scopes: ${apiKeyScopes.join(", ")}.`, [
        { field: "scopes", message: `unknown scope ${unknown.join(", ")}` },
      ]);
    }
    if (scopes.length === 0) {
      throw invalidRequest("A key needs at least one scope.", [{ field: "scopes", message: "must not be empty" }]);
    }
    return apiKeyScopes.filter((scope) => scopes.includes(scope));
  }
  const name = preset ?? "full";
  if (!isScopePreset(name)) {
    throw invalidRequest(`Unknown scope preset: ${name}. Known presets: ${scopePresetNames.join(", ")}.`, [
      { field: "preset", message: `unknown preset ${name}` },
    ]);
  }
  return [...scopePresets[name]];
}
