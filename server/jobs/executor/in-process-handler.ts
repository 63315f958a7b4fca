// The serve handler as a function in this process. Route handlers live in Next's module graph and
// the executor in the server's, so the route registers a POST handler of the same functions on
// globalThis under its app id; the executor then makes Call Requests by calling it instead of a
// round trip through the socket, our HTTP server and Next's router. Only this process can call it,
// so that handler skips the signature check and the executor does not sign (the HTTP route checks
// every request as before). The sync stays a signed HTTP request: it is what makes Next load the
// route in the first place.
//
// The call hands the SDK's Next adapter a request and a response in the shape of Next's pages API
// (plain objects: the adapter takes a `req` with `body`, `headers.get`, `url` and `query`, and
// answers through `res.setHeader`, `res.status` and `res.send`) rather than a web Request it
// would read back through a stream and a web Response we would read again: about 2 % of a
// generation's CPU went to those streams. The body stays a JSON string, parsed by the SDK, so
// nothing the function does can reach the run record's objects.

export type InProcessReply = { status: number; headers: Record<string, string>; text: string };

/** One Call Request: the serve URL with its query (fnId, stepId) and the JSON body. */
export type ServeHandler = (url: URL, body: string) => Promise<InProcessReply>;

/** The POST handler `serve()` of `inngest/next` returns: `(req, res)`. */
export type NextServePost = (req: never, res: never) => unknown;

type Registry = { __darkroomServeHandlers?: Map<string, ServeHandler> };
const registry = globalThis as unknown as Registry;

function handlers(): Map<string, ServeHandler> {
  registry.__darkroomServeHandlers ??= new Map();
  return registry.__darkroomServeHandlers;
}

/** A ServeHandler over the Next adapter's POST handler. */
export function inProcessServeHandler(post: NextServePost): ServeHandler {
  return async (url, body) => {
    const requestHeaders: Record<string, string> = { "content-type": "application/json", host: url.host };
    const reply: InProcessReply = { status: 200, headers: {}, text: "" };
    let sent = false;
    const req = {
      method: "POST",
      url: url.href,
      body,
      query: Object.fromEntries(url.searchParams),
      headers: { get: (key: string) => requestHeaders[key.toLowerCase()] ?? null },
    };
    const res = {
      setHeader(key: string, value: unknown) {
        reply.headers[key.toLowerCase()] = String(value);
      },
      status(code: number) {
        reply.status = code;
        return res;
      },
      send(text: unknown) {
        reply.text = typeof text === "string" ? text : JSON.stringify(text);
        sent = true;
      },
    };
    const returned = await post(req as never, res as never);
    if (sent) return reply;
    // A streamed answer comes back as a web Response whatever `res` is.
    if (returned instanceof Response)
      return { status: returned.status, headers: Object.fromEntries(returned.headers), text: await returned.text() };
    throw new Error("the serve handler answered nothing");
  };
}

/** Registers the app's handler; the returned function takes it back (tests). */
export function registerServeHandler(appId: string, handler: ServeHandler): () => void {
  handlers().set(appId, handler);
  return () => {
    if (handlers().get(appId) === handler) handlers().delete(appId);
  };
}

export function serveHandlerOf(appId: string): ServeHandler | undefined {
  return handlers().get(appId);
}
