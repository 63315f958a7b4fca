import { listPage } from "@/tests/fakes/stripe/list";
import { optionalString, stringList } from "@/tests/fakes/stripe/params";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import { noSuch } from "@/tests/fakes/stripe/stripe-errors";

// GET /v1/events/:id and GET /v1/events (`type`, with Stripe's `*` wildcard, or `types[]`), newest first.

function typeMatches(pattern: string, type: string) {
  return pattern.endsWith("*") ? type.startsWith(pattern.slice(0, -1)) : pattern === type;
}

export const eventRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "/v1/events",
    handle: ({ store, params }) => {
      const type = optionalString(params, "type");
      const types = stringList(params, "types");
      const events = store.events.sent
        .map((sent) => sent.event)
        .filter((event) => !type || typeMatches(type, event.type))
        .filter((event) => !types || types.some((pattern) => typeMatches(pattern, event.type)))
        .reverse();
      return listPage(events, params, "/v1/events");
    },
  },
  {
    method: "GET",
    path: "/v1/events/:id",
    handle: ({ store, id }) => {
      const sent = store.events.find(id);
      if (!sent) throw noSuch("event", id);
      return sent.event;
    },
  },
];
