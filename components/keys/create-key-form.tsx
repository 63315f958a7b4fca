"use client";

import { useState, type FormEvent } from "react";
import { Checkbox, Field, Input, Textarea } from "@/components/ui";
import { Select } from "@/components/ui/select";
import { spendPeriodLabels, type SpendPeriodName } from "@/components/spend/spend-limit-form";
import { apiKeyScopes, scopePresetLabels, scopePresetNames, scopePresets, type ScopePreset } from "@/server/keys/scopes";

// The fields of "Create API key". The dialog owns the submit button (its footer), so the form is
// addressed by id; the server checks everything again and names the field it refuses.

export type CreateKeyValues = {
  name: string;
  preset?: ScopePreset;
  scopes?: string[];
  expiresAt: Date | null;
  ipAllowlist: string[] | null;
  region?: "us" | "eu" | "jp";
  spendLimit?: string;
  spendPeriod?: SpendPeriodName;
};

export type CreateKeyFormProps = {
  formId: string;
  accountRegion: string | undefined;
  fieldErrors: Partial<Record<"name" | "scopes" | "expiresAt" | "ipAllowlist" | "region" | "spendLimit", string>>;
  onSubmit: (values: CreateKeyValues) => void;
};

const regionLabels = { us: "United States (us)", eu: "Europe (eu)", jp: "Japan (jp)" } as const;

const scopeDescriptions: Record<string, string> = {
  "generation:write": "Start image and video generations",
  "generation:read": "Read generations and list them",
  "generation:delete": "Delete and cancel generations",
  "account:read": "Status, usage, account and billing",
  "health:read": "Provider health",
  "library:read": "Providers, models and estimates",
};

export function CreateKeyForm({ formId, accountRegion, fieldErrors, onSubmit }: CreateKeyFormProps) {
  const [name, setName] = useState("");
  const [mode, setMode] = useState<ScopePreset | "custom">("full");
  const [custom, setCustom] = useState<string[]>(["generation:read"]);
  const [expires, setExpires] = useState("");
  const [allowlist, setAllowlist] = useState("");
  const [region, setRegion] = useState("");
  const [spendLimit, setSpendLimit] = useState("");
  const [spendPeriod, setSpendPeriod] = useState<SpendPeriodName>("month");
  const [localError, setLocalError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mode === "custom" && custom.length === 0) {
      setLocalError("Choose at least one scope.");
      return;
    }
    setLocalError(null);
    const entries = allowlist
      .split(/[\s,]+/)
      .map((entry) => entry.trim())
      .filter(Boolean);
    onSubmit({
      name,
      ...(mode === "custom" ? { scopes: apiKeyScopes.filter((scope) => custom.includes(scope)) } : { preset: mode }),
      expiresAt: expires ? new Date(expires) : null,
      ipAllowlist: entries.length > 0 ? entries : null,
      region: region === "" ? undefined : (region as CreateKeyValues["region"]),
      ...(spendLimit.trim() === "" ? {} : { spendLimit: spendLimit.trim(), spendPeriod }),
    });
  }

  const scopesError = localError ?? fieldErrors.scopes;

  return (
    <form id={formId} onSubmit={submit} className="space-y-5 pb-2" noValidate>
      <Field label="Name" required hint="Up to 100 characters, e.g. where the key is used." error={fieldErrors.name}>
        <Input
          placeholder="Production backend"
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoFocus
          autoComplete="off"
        />
      </Field>

      <fieldset className="space-y-2">
        <legend className="mb-2 flex w-full items-baseline justify-between gap-3 text-sm font-medium text-zinc-900">
          Scopes
          {scopesError && (
            <span role="alert" className="text-xs font-medium text-red-600">
              {scopesError}
            </span>
          )}
        </legend>
        <Select aria-label="Scope preset" value={mode} onChange={(event) => setMode(event.target.value as ScopePreset | "custom")}>
          {scopePresetNames.map((preset) => (
            <option key={preset} value={preset}>
              {scopePresetLabels[preset]}
            </option>
          ))}
          <option value="custom">Custom scopes</option>
        </Select>
        <div className="grid gap-px overflow-hidden rounded-md border border-zinc-200 bg-zinc-200 sm:grid-cols-2">
          {apiKeyScopes.map((scope) => {
            const checked = mode === "custom" ? custom.includes(scope) : (scopePresets[mode] as readonly string[]).includes(scope);
            return (
              <Checkbox
                key={scope}
                className="bg-white px-3 py-2.5"
                checked={checked}
                disabled={mode !== "custom"}
                onChange={(event) =>
                  setCustom(event.target.checked ? [...custom, scope] : custom.filter((candidate) => candidate !== scope))
                }
                label={<code className="font-mono text-[13px]">{scope}</code>}
                description={<span className="text-xs">{scopeDescriptions[scope]}</span>}
              />
            );
          })}
        </div>
        {mode !== "custom" && <p className="text-xs text-zinc-500">Choose “Custom scopes” to pick them one by one.</p>}
      </fieldset>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Expires" hint="Optional. Leave empty for a key that never expires." error={fieldErrors.expiresAt}>
          <Input type="datetime-local" value={expires} onChange={(event) => setExpires(event.target.value)} />
        </Field>
        <Field label="Region" hint="The key works only on this region's address." error={fieldErrors.region}>
          <Select value={region} onChange={(event) => setRegion(event.target.value)}>
            <option value="">Account default{accountRegion ? ` (${accountRegion})` : ""}</option>
            {Object.entries(regionLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Spend limit" hint="Optional, in credits. Creates past it are refused (ERR1014)." error={fieldErrors.spendLimit}>
          <Input
            inputMode="decimal"
            placeholder="No limit"
            value={spendLimit}
            onChange={(event) => setSpendLimit(event.target.value)}
            className="tabular-nums"
          />
        </Field>
        <Field label="Limit period" hint="UTC; a week starts on Monday.">
          <Select
            value={spendPeriod}
            disabled={spendLimit.trim() === ""}
            onChange={(event) => setSpendPeriod(event.target.value as SpendPeriodName)}
          >
            {Object.entries(spendPeriodLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
      </div>

      <Field
        label="IP allowlist"
        hint="Optional. Up to 50 IPv4 or IPv6 addresses or CIDR ranges, one per line. Empty lets every client address in."
        error={fieldErrors.ipAllowlist}
      >
        <Textarea
          rows={3}
          className="font-mono text-[13px]"
          placeholder={"203.0.113.0/24\n2001:db8::1"}
          spellCheck={false}
          value={allowlist}
          onChange={(event) => setAllowlist(event.target.value)}
        />
      </Field>
    </form>
  );
}
