import { readSearchParam, type SearchParams } from "@/components/dashboard/read-search-param";

// The generations page's filters as they live in its URL (?status=&model=&from=&to=&view=): read
// the same way by the server page (to prefetch) and the client page (to query and edit).

export const generationStatuses = ["pending", "processing", "succeeded", "failed", "canceled"] as const;
export type GenerationStatus = (typeof generationStatuses)[number];
export type GenerationsView = "gallery" | "table";

export type GenerationFilterState = { status?: GenerationStatus; model?: string; from?: string; to?: string; view: GenerationsView };

export const PAGE_SIZE = 24;

const isDay = (value: string | undefined): value is string =>
  !!value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

const read = readSearchParam;

/** Unknown or malformed values are dropped, never sent to the server. */
export function readGenerationFilters(params: SearchParams): GenerationFilterState {
  const status = read(params, "status");
  const model = read(params, "model");
  const from = read(params, "from");
  const to = read(params, "to");
  return {
    status: generationStatuses.find((value) => value === status),
    model: model && model.length <= 200 ? model : undefined,
    from: isDay(from) ? from : undefined,
    to: isDay(to) && (!isDay(from) || from <= to) ? to : undefined,
    view: read(params, "view") === "table" ? "table" : "gallery",
  };
}

/** The list procedure's input (without the cursor, which the infinite query adds). */
export function listInput(accountId: string, filters: GenerationFilterState) {
  return { accountId, status: filters.status, model: filters.model, createdFrom: filters.from, createdTo: filters.to, limit: PAGE_SIZE };
}

export function filtersToSearch(filters: GenerationFilterState): string {
  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (filters.model) params.set("model", filters.model);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  if (filters.view === "table") params.set("view", "table");
  const search = params.toString();
  return search ? `?${search}` : "";
}

export const inFlight = (status: string) => status === "pending" || status === "processing";
