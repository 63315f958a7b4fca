import { createVideoGeneration } from "@/server/edge/http/handlers/generations";
import { v1Route } from "@/server/edge/http/v1-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(createVideoGeneration);
