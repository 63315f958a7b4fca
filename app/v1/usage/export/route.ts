import { exportUsageRoute } from "@/server/edge/http/handlers/downloads";
import { v1Route } from "@/server/edge/http/v1-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(exportUsageRoute);
