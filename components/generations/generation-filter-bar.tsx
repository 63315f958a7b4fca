"use client";

import { LayoutGrid, List, X } from "lucide-react";
import { Button, cn, Input, Label } from "@/components/ui";
import { controlClassName } from "@/components/ui/control-class-name";
import { generationStatuses, type GenerationFilterState, type GenerationsView } from "./generation-filters";

// Status, model and creation-day filters, and the gallery / table switch. Every control has a label.

export type GenerationFilterBarProps = {
  filters: GenerationFilterState;
  models: string[];
  onChange: (filters: GenerationFilterState) => void;
};

const selectClassName = cn(controlClassName, "h-9 pr-8");

export function GenerationFilterBar({ filters, models, onChange }: GenerationFilterBarProps) {
  const filtered = !!(filters.status || filters.model || filters.from || filters.to);
  const set = (patch: Partial<GenerationFilterState>) => onChange({ ...filters, ...patch });
  // A model in the URL that this account never used is still offered, so the select shows it.
  const modelOptions = filters.model && !models.includes(filters.model) ? [filters.model, ...models] : models;

  return (
    <div className="flex flex-wrap items-end gap-3 border-b border-zinc-200 px-5 py-4">
      <div className="flex w-full flex-col gap-1.5 sm:w-40">
        <Label htmlFor="filter-status">Status</Label>
        <select
          id="filter-status"
          className={selectClassName}
          value={filters.status ?? ""}
          onChange={(event) => set({ status: (event.target.value || undefined) as GenerationFilterState["status"] })}
        >
          <option value="">Any status</option>
          {generationStatuses.map((status) => (
            <option key={status} value={status}>
              {status.charAt(0).toUpperCase() + status.slice(1)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex w-full flex-col gap-1.5 sm:w-60">
        <Label htmlFor="filter-model">Model</Label>
        <select
          id="filter-model"
          className={selectClassName}
          value={filters.model ?? ""}
          onChange={(event) => set({ model: event.target.value || undefined })}
        >
          <option value="">Any model</option>
          {modelOptions.map((model) => (
            <option key={model} value={model}>
              {model}
            </option>
          ))}
        </select>
      </div>
      <div className="grid w-full grid-cols-2 gap-3 sm:flex sm:w-auto">
        <div className="flex min-w-0 flex-col gap-1.5 sm:w-40">
          <Label htmlFor="filter-from">Created from</Label>
          <Input
            id="filter-from"
            type="date"
            value={filters.from ?? ""}
            max={filters.to}
            onChange={(event) => set({ from: event.target.value || undefined })}
          />
        </div>
        <div className="flex min-w-0 flex-col gap-1.5 sm:w-40">
          <Label htmlFor="filter-to">Created to</Label>
          <Input
            id="filter-to"
            type="date"
            value={filters.to ?? ""}
            min={filters.from}
            onChange={(event) => set({ to: event.target.value || undefined })}
          />
        </div>
      </div>
      {filtered && (
        <Button variant="ghost" size="sm" className="mb-0.5" onClick={() => onChange({ view: filters.view })}>
          <X aria-hidden />
          Clear filters
        </Button>
      )}
      <div role="group" aria-label="View" className="ml-auto inline-flex rounded-md border border-zinc-200 bg-zinc-50 p-0.5">
        <ViewButton view="gallery" current={filters.view} onSelect={(view) => set({ view })} />
        <ViewButton view="table" current={filters.view} onSelect={(view) => set({ view })} />
      </div>
    </div>
  );
}

function ViewButton({
  view,
  current,
  onSelect,
}: {
  view: GenerationsView;
  current: GenerationsView;
  onSelect: (view: GenerationsView) => void;
}) {
  const Icon = view === "gallery" ? LayoutGrid : List;
  return (
    <button
      type="button"
      aria-pressed={current === view}
      onClick={() => onSelect(view)}
      className={cn(
        "inline-flex items-center gap-1.5 rounded px-2.5 py-1.5 text-xs font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-zinc-900/10",
        current === view ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-500 hover:text-zinc-900",
      )}
    >
      <Icon className="size-3.5" aria-hidden />
      {view === "gallery" ? "Gallery" : "Table"}
    </button>
  );
}
