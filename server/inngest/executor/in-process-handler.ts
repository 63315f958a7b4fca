// The serve handler as a function in this process. Route handlers live in Next's module graph and
// the executor in the server's, so the route registers a POST handler of the same functions on
// globalThis under its app id; the executor then makes Call Requests by calling it with a Request
// instead of a round trip through the socket, our HTTP server and Next's router. Only this process
// can call it, so that handler skips the signature check and the executor does not sign (the HTTP
// route checks every request as before). The sync stays a signed HTTP request: it is what makes
// Next load the route in the first place.

export type ServeHandler = (request: Request) => Promise<Response>;

type Registry = { __darkroomServeHandlers?: Map<string, ServeHandler> };
const registry = globalThis as unknown as Registry;

function handlers(): Map<string, ServeHandler> {
  registry.__darkroomServeHandlers ??= new Map();
  return registry.__darkroomServeHandlers;
}

export function registerServeHandler(appId: string, handler: ServeHandler) {
  handlers().set(appId, handler);
}

export function serveHandlerOf(appId: string): ServeHandler | undefined {
  return handlers().get(appId);
}
