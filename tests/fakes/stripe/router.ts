import type { Params } from "@/tests/fakes/stripe/form";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// The /v1 routing table: each domain file exports routes `{method, path: "/v1/prices/:id", handle}`;
// a handler reads decoded params and returns the Stripe object to answer (the server expands it).

/** `id` is the `:id` of the path, or "". */
export type ApiContext = { store: StripeStore; params: Params; id: string; path: string };
export type ApiRoute = { method: "GET" | "POST" | "DELETE"; path: string; handle: (context: ApiContext) => StripeObject };

export function matchRoute(routes: ApiRoute[], method: string, path: string): { route: ApiRoute; ids: Record<string, string> } | null {
  const segments = path.split("/").filter(Boolean);
  for (const route of routes) {
    if (route.method !== method) continue;
    const pattern = route.path.split("/").filter(Boolean);
    if (pattern.length !== segments.length) continue;
    const ids: Record<string, string> = {};
    const matches = pattern.every((part, index) => {
      const segment = decodeURIComponent(segments[index] ?? "");
      if (part.startsWith(":")) {
        ids[part.slice(1)] = segment;
        return segment !== "";
      }
      return part === segment;
    });
    if (matches) return { route, ids };
  }
  return null;
}
