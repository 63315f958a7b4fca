"use client";

import { ArrowDown, ArrowUp } from "lucide-react";
import { Button, Checkbox } from "@/components/ui";

// generation_provider_order: `fastest` (the router ranks providers by recent health and latency) or
// the providers ticked, tried in the order shown; arrows move a ticked provider up or down.

export function parseOrder(value: string, providers: readonly string[]): { fastest: boolean; chosen: string[] } {
  const chosen = value
    .split(",")
    .map((name) => name.trim())
    .filter((name) => providers.includes(name));
  return { fastest: value.trim() === "" || value.trim() === "fastest" || chosen.length === 0, chosen };
}

export function ProviderOrderField({
  value,
  providers,
  onChange,
  idPrefix,
}: {
  value: string;
  providers: readonly string[];
  onChange: (value: string) => void;
  idPrefix: string;
}) {
  const { fastest, chosen } = parseOrder(value, providers);
  const others = providers.filter((provider) => !chosen.includes(provider));
  const move = (index: number, by: -1 | 1) => {
    const next = [...chosen];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item as string);
    onChange(next.join(","));
  };
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-zinc-900">Provider order</legend>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="inline-flex items-center gap-2">
          <input type="radio" name={`${idPrefix}-order`} className="accent-zinc-900" checked={fastest} onChange={() => onChange("")} />
          Fastest
        </label>
        <label className="inline-flex items-center gap-2">
          <input
            type="radio"
            name={`${idPrefix}-order`}
            className="accent-zinc-900"
            checked={!fastest}
            onChange={() => onChange(providers[0] ?? "")}
            disabled={providers.length === 0}
          />
          Chosen providers, in order
        </label>
      </div>
      {!fastest && (
        <ul className="space-y-1" aria-label="Providers">
          {chosen.map((provider, index) => (
            <li key={provider} className="flex items-center gap-2 rounded-md border border-zinc-200 px-2 py-1">
              <Checkbox
                label={<span className="font-mono text-xs">{provider}</span>}
                checked
                onChange={() => onChange(chosen.filter((name) => name !== provider).join(","))}
              />
              <span className="ml-auto flex gap-1">
                <Button variant="ghost" size="sm" aria-label={`Move ${provider} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                  <ArrowUp aria-hidden />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Move ${provider} down`}
                  disabled={index === chosen.length - 1}
                  onClick={() => move(index, 1)}
                >
                  <ArrowDown aria-hidden />
                </Button>
              </span>
            </li>
          ))}
          {others.map((provider) => (
            <li key={provider} className="flex items-center gap-2 px-2 py-1">
              <Checkbox
                label={<span className="font-mono text-xs text-zinc-600">{provider}</span>}
                checked={false}
                onChange={() => onChange([...chosen, provider].join(","))}
              />
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
