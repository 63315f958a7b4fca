import { streamGenerationEventsRoute } from "@/server/edge/http/handlers/streams";
import { v1Route } from "@/server/edge/http/v1-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(streamGenerationEventsRoute);
