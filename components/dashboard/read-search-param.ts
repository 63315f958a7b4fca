// One value of a page's query string, whether a server page got it as its `searchParams` record
// or a client component as `useSearchParams()`.

export type SearchParams = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export function readSearchParam(params: SearchParams, name: string): string | undefined {
  if (typeof params.get === "function") return (params as { get(name: string): string | null }).get(name) ?? undefined;
  const value = (params as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}
