import { createImageGeneration, getContent } from "@/server/edge/http/handlers/generations";
import { v1Route } from "@/server/edge/http/v1-route";
import { withParamRenamed } from "@/server/edge/http/with-api-key";

// Legacy forms: GET /v1/image-generation/{generation_id} reads a generation and
// POST /v1/image-generation/{modelIdentifier} creates an image; same operations, same log names.

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(
  withParamRenamed(getContent, "target", "generation_id"),
  withParamRenamed(createImageGeneration, "target", "model_identifier"),
);
