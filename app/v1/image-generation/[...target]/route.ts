import { createImageGeneration, getContent } from "@/server/generations/handlers";
import { v1Route } from "@/server/http/v1-route";
import type { NextRouteContext } from "@/server/http/with-api-key";

// Legacy forms (spec §4): GET /v1/image-generation/{generation_id} reads a generation and
// POST /v1/image-generation/{modelIdentifier} creates an image; same handlers, same log names.

export const dynamic = "force-dynamic";

function renamed(context: NextRouteContext, name: string): NextRouteContext {
  return { params: context.params.then((params) => ({ [name]: params.target })) };
}

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: (request, context) => getContent(request, renamed(context, "generation_id")),
  POST: (request, context) => createImageGeneration(request, renamed(context, "model_identifier")),
});
