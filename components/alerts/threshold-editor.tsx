"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus, X } from "lucide-react";
import { useState } from "react";
import { formatCredits } from "@/components/dashboard/format-credits";
import { apiErrorFields } from "@/components/trpc/api-error";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Badge, Button, Input, toast } from "@/components/ui";

// Replaces the whole list: up to 10 positive amounts; an empty list turns alerts off.

type Row = { key: number; value: string };
type SavedThreshold = { amount: number; armed: boolean };

export function ThresholdEditor({ accountId, initial, max }: { accountId: string; initial: SavedThreshold[]; max: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [nextKey, setNextKey] = useState(initial.length);
  const [rows, setRows] = useState<Row[]>(
    initial.map((threshold, key) => ({ key, value: formatCredits(threshold.amount, { grouping: false }) })),
  );
  const [error, setError] = useState<{ message: string; fields: string[] } | null>(null);

  const save = useMutation(
    trpc.alerts.set.mutationOptions({
      onSuccess: async (data) => {
        setError(null);
        setRows(data.thresholds.map((threshold, key) => ({ key, value: formatCredits(threshold.amount, { grouping: false }) })));
        setNextKey(data.thresholds.length);
        await queryClient.invalidateQueries({ queryKey: trpc.alerts.get.queryKey({ accountId }) });
        toast.success(data.thresholds.length > 0 ? "Low-balance alerts saved" : "Low-balance alerts turned off");
      },
      onError: (failure) => {
        setError({ message: errorMessage(failure), fields: Object.keys(apiErrorFields(failure)) });
      },
    }),
  );

  const invalidIndex = (index: number) => error?.fields.includes(`thresholds[${index}]`) ?? false;
  const savedState = (value: string) => initial.find((threshold) => threshold.amount === Number(value.trim()) && value.trim() !== "");

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ accountId, thresholds: rows.map((row) => row.value.trim()).filter((value) => value !== "") });
      }}
    >
      <ul className="space-y-2">
        {rows.map((row, index) => (
          <li key={row.key} className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="w-12 shrink-0 text-sm text-zinc-500 sm:w-14">Below</span>
            <div className="relative w-32 sm:w-40">
              <Input
                aria-label={`Threshold ${index + 1}`}
                inputMode="decimal"
                value={row.value}
                aria-invalid={invalidIndex(index) || undefined}
                onChange={(event) => setRows(rows.map((r) => (r.key === row.key ? { ...r, value: event.target.value } : r)))}
                className="pr-16 tabular-nums"
              />
              <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-xs text-zinc-400">credits</span>
            </div>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove threshold ${index + 1}`}
              onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
            >
              <X aria-hidden />
            </Button>
            <ThresholdState saved={savedState(row.value)} />
          </li>
        ))}
      </ul>
      {rows.length === 0 ? <p className="text-sm text-zinc-500">No thresholds: low-balance alerts are off.</p> : null}
      {error ? (
        <p role="alert" className="text-sm text-red-600">
          {error.message}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-100 pt-4">
        <Button
          variant="secondary"
          size="sm"
          disabled={rows.length >= max}
          onClick={() => {
            setRows([...rows, { key: nextKey, value: "" }]);
            setNextKey(nextKey + 1);
          }}
        >
          <Plus aria-hidden />
          Add threshold
        </Button>
        <div className="flex items-center gap-3">
          <span className="text-xs text-zinc-500">
            {rows.length} of {max}
          </span>
          <Button type="submit" size="sm" loading={save.isPending}>
            Save alerts
          </Button>
        </div>
      </div>
    </form>
  );
}

function ThresholdState({ saved }: { saved: SavedThreshold | undefined }) {
  if (!saved) return <span className="text-xs text-zinc-400">Not saved yet</span>;
  return saved.armed ? (
    <Badge tone="green" dot>
      Armed
    </Badge>
  ) : (
    <Badge tone="amber" dot>
      Fired, re-arms above it
    </Badge>
  );
}
