"use client";

import { Search, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button, cn, Input, Label } from "@/components/ui";
import { controlClassName } from "@/components/ui/control-class-name";
import { isFiltered, type ModelFilterState } from "./model-filters";
import type { ModelCatalog } from "./model-types";

// Type, workflow, provider and price filters and the name search. Typing settles for a moment
// before it becomes a query. Every control has a label.

export type ModelFilterBarProps = {
  filters: ModelFilterState;
  facets: ModelCatalog["facets"] | undefined;
  onChange: (filters: ModelFilterState) => void;
};

const selectClassName = cn(controlClassName, "h-9 pr-8");
const SETTLE_MS = 250;

export function ModelFilterBar({ filters, facets, onChange }: ModelFilterBarProps) {
  const set = (patch: Partial<ModelFilterState>) => onChange({ ...filters, ...patch });
  const [search, setSearch] = useSettled(filters.search ?? "", (value) => set({ search: value.trim() || undefined }));
  const [maxPrice, setMaxPrice] = useSettled(filters.maxPrice === undefined ? "" : String(filters.maxPrice), (value) => {
    const price = value.trim() === "" ? undefined : Number(value);
    set({ maxPrice: price !== undefined && Number.isFinite(price) && price >= 0 ? price : undefined });
  });

  return (
    <div className="flex flex-wrap items-end gap-3 border-b border-zinc-200 px-5 py-4">
      <div className="flex w-full flex-col gap-1.5 sm:w-64">
        <Label htmlFor="models-search">Search</Label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400" aria-hidden />
          <Input
            id="models-search"
            type="search"
            className="pl-9"
            placeholder="Name or identifier"
            value={search}
            maxLength={100}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      </div>
      <div className="grid w-full grid-cols-2 gap-3 sm:flex sm:w-auto">
        <FilterSelect
          id="models-type"
          label="Type"
          width="sm:w-32"
          any="Any type"
          value={filters.type}
          options={typeOptions}
          onChange={(type) => set({ type: type as ModelFilterState["type"] })}
        />
        <FilterSelect
          id="models-workflow"
          label="Workflow"
          width="sm:w-44"
          any="Any workflow"
          value={filters.workflow}
          options={(facets?.workflows ?? []).map((workflow) => ({ value: workflow, label: workflow }))}
          onChange={(workflow) => set({ workflow: workflow as ModelFilterState["workflow"] })}
        />
        <FilterSelect
          id="models-provider"
          label="Provider"
          width="sm:w-48"
          any="Any provider"
          value={filters.provider}
          options={(facets?.providers ?? []).map((provider) => ({ value: provider.id, label: provider.name }))}
          onChange={(provider) => set({ provider: provider as ModelFilterState["provider"] })}
        />
        <div className="flex min-w-0 flex-col gap-1.5 sm:w-36">
          <Label htmlFor="models-max-price">Max price (credits)</Label>
          <Input
            id="models-max-price"
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            placeholder="Any"
            value={maxPrice}
            onChange={(event) => setMaxPrice(event.target.value)}
            aria-describedby="models-max-price-hint"
          />
        </div>
      </div>
      {isFiltered(filters) && (
        <Button
          variant="ghost"
          size="sm"
          className="mb-0.5"
          onClick={() => {
            setSearch("", { now: true });
            setMaxPrice("", { now: true });
            onChange({});
          }}
        >
          <X aria-hidden />
          Clear filters
        </Button>
      )}
      <p id="models-max-price-hint" className="w-full text-xs text-zinc-500">
        Prices are per image for image models and per second of output for video models.
      </p>
    </div>
  );
}

const typeOptions = [
  { value: "image", label: "Image" },
  { value: "video", label: "Video" },
];

type Option = { value: string; label: string };
type FilterSelectProps = {
  id: string;
  label: string;
  width: string;
  any: string;
  value: string | undefined;
  options: Option[];
  onChange: (value: string | undefined) => void;
};

/** A labelled select whose empty choice is "any"; a value in the URL the catalog does not offer is still listed, so it says what is applied. */
function FilterSelect({ id, label, width, any, value, options, onChange }: FilterSelectProps) {
  const shown = value && !options.some((option) => option.value === value) ? [{ value, label: value }, ...options] : options;
  return (
    <div className={cn("flex min-w-0 flex-col gap-1.5", width)}>
      <Label htmlFor={id}>{label}</Label>
      <select id={id} className={selectClassName} value={value ?? ""} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">{any}</option>
        {shown.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A text control's own value, handed on once typing pauses; `{now: true}` sets it without handing it on. */
function useSettled(applied: string, commit: (value: string) => void): [string, (value: string, options?: { now?: boolean }) => void] {
  const [draft, setDraft] = useState(applied);
  const [pending, setPending] = useState(false);
  const [seen, setSeen] = useState(applied);
  // The URL changed from elsewhere (back, Clear filters): show what is applied.
  if (seen !== applied) {
    setSeen(applied);
    if (!pending) setDraft(applied);
  }
  const latestCommit = useRef(commit);
  useEffect(() => {
    latestCommit.current = commit;
  });
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      setPending(false);
      latestCommit.current(draft);
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [draft, pending]);
  return [
    draft,
    (value, options) => {
      setDraft(value);
      setPending(!options?.now);
    },
  ];
}
