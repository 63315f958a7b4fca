import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";
import { readSearchParam, type SearchParams } from "@/components/dashboard/read-search-param";

// The Models page's filters as they live in its URL (?type=&workflow=&provider=&max_price=&q=):
// read the same way by the server page (to prefetch) and the client page (to query and edit).
// Workflow and provider ids are the server's to check: an unknown one is answered with ERR1001.

export type ModelFilterState = Omit<inferRouterInputs<AppRouter>["models"]["list"], "accountId">;

const read = readSearchParam;

const isId = (value: string | undefined): value is string => !!value && /^[a-z0-9][a-z0-9-]{0,59}$/.test(value);

/** Malformed values are dropped, never sent to the server. */
export function readModelFilters(params: SearchParams): ModelFilterState {
  const type = read(params, "type");
  const workflow = read(params, "workflow");
  const provider = read(params, "provider");
  const maxPrice = Number(read(params, "max_price") ?? Number.NaN);
  const search = read(params, "q")?.trim();
  return {
    type: type === "image" || type === "video" ? type : undefined,
    workflow: isId(workflow) ? (workflow as ModelFilterState["workflow"]) : undefined,
    provider: isId(provider) ? (provider as ModelFilterState["provider"]) : undefined,
    maxPrice: Number.isFinite(maxPrice) && maxPrice >= 0 && maxPrice <= 1_000_000 ? maxPrice : undefined,
    search: search && search.length <= 100 ? search : undefined,
  };
}

/** The list procedure's input; the server checks workflow and provider against the catalog. */
export function listInput(accountId: string, filters: ModelFilterState) {
  return { accountId, ...filters };
}

export function filtersToSearch(filters: ModelFilterState): string {
  const params = new URLSearchParams();
  if (filters.type) params.set("type", filters.type);
  if (filters.workflow) params.set("workflow", filters.workflow);
  if (filters.provider) params.set("provider", filters.provider);
  if (filters.maxPrice !== undefined) params.set("max_price", String(filters.maxPrice));
  if (filters.search) params.set("q", filters.search);
  const search = params.toString();
  return search ? `?${search}` : "";
}

export const isFiltered = (filters: ModelFilterState) => Object.values(filters).some((value) => value !== undefined);

/** The page of one model: its identifier's two segments under the account's models. */
export const modelHref = (accountId: string, identifier: string) =>
  `/dashboard/${accountId}/models/${identifier.split("/").map(encodeURIComponent).join("/")}`;
