import type { NextRouteContext } from "./with-api-key";

// The /v1 routes our HTTP server answers itself once Next has loaded them (issue #12). A route
// file names its public path (`servedDirectly`); when Next first loads the file, its handlers are
// registered here, on globalThis (Next's bundle and the server's are separate module graphs). From
// then on the server (start/serve-v1-directly.ts) calls the same handlers with a Web Request and
// skips Next's router, most of a cached read's cost. Which path a request names, and its
// parameters, is the edge's to decide from every operation's paths (v1-edge.ts): a path whose
// best template is not registered here (a route not loaded yet, a legacy path, a rewrite) still
// goes to Next.

export type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;
type Handlers = Partial<Record<string, RouteHandler>>;
type Registry = { darkroomDirectRoutes?: Map<string, Handlers> };

const registry = globalThis as unknown as Registry;

/**
 * Registers a route file's handlers under its public path (`/v1/content/{generation_id}`, as the
 * operation names it) and returns them unchanged, for the file to export.
 */
export function servedDirectly<Routes extends Handlers>(path: string, handlers: Routes): Routes {
  registry.darkroomDirectRoutes ??= new Map();
  registry.darkroomDirectRoutes.set(path, handlers);
  return handlers;
}

/** The handler registered for a template path and method, if its route file has been loaded. */
export function directHandler(path: string, method: string): RouteHandler | undefined {
  return registry.darkroomDirectRoutes?.get(path)?.[method];
}

/** For tests: forget every registration (as a server that has loaded no route yet). */
export function clearDirectRoutes() {
  registry.darkroomDirectRoutes?.clear();
}
