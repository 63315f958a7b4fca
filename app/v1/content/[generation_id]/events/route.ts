import { streamGenerationEventsRoute } from "@/server/http/handlers/streams";
import { v1Route } from "@/server/http/v1-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(streamGenerationEventsRoute);
