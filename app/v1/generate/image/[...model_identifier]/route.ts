import { createImageGeneration } from "@/server/http/handlers/generations";
import { v1Route } from "@/server/http/v1-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(createImageGeneration);
