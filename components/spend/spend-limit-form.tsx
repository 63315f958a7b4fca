"use client";

import { useState } from "react";
import { Button, Input } from "@/components/ui";
import { Select } from "@/components/ui/select";

// Set or clear a spend limit: an amount in credits (3 decimals at most, checked by the server)
// and, for a key, its period. "Remove limit" clears it.

export const spendPeriodLabels = {
  day: "Per day",
  week: "Per week (from Monday)",
  month: "Per calendar month",
  total: "In total (never resets)",
} as const;
export type SpendPeriodName = keyof typeof spendPeriodLabels;

export type SpendLimitFormProps = {
  initialLimit: number | null;
  initialPeriod?: SpendPeriodName | null;
  /** Without it the form sets an amount only (the account's monthly limit). */
  withPeriod: boolean;
  pending: boolean;
  error: string | null;
  onSave: (limit: string | null, period: SpendPeriodName | undefined) => void;
};

export function SpendLimitForm({ initialLimit, initialPeriod, withPeriod, pending, error, onSave }: SpendLimitFormProps) {
  const [amount, setAmount] = useState(initialLimit === null ? "" : String(initialLimit));
  const [period, setPeriod] = useState<SpendPeriodName>(initialPeriod ?? "month");
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(amount.trim() === "" ? null : amount.trim(), withPeriod ? period : undefined);
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <label className="space-y-1.5">
          <span className="block text-sm font-medium text-zinc-900">Limit</span>
          <span className="relative block w-40">
            <Input
              aria-label="Spend limit in credits"
              inputMode="decimal"
              placeholder="No limit"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              className="pr-16 tabular-nums"
            />
            <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-xs text-zinc-400">credits</span>
          </span>
        </label>
        {withPeriod && (
          <label className="space-y-1.5">
            <span className="block text-sm font-medium text-zinc-900">
              Period <span className="font-normal text-zinc-500">(UTC)</span>
            </span>
            <Select
              aria-label="Spend period (UTC)"
              value={period}
              onChange={(event) => setPeriod(event.target.value as SpendPeriodName)}
              className="w-60"
            >
              {Object.entries(spendPeriodLabels).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </label>
        )}
        <div className="flex gap-2">
          <Button type="submit" size="sm" loading={pending}>
            Save limit
          </Button>
          {initialLimit !== null && (
            <Button variant="secondary" size="sm" disabled={pending} onClick={() => onSave(null, undefined)}>
              Remove limit
            </Button>
          )}
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </form>
  );
}
