import { dashboardEventStream } from "@/server/edge/http/handlers/live-dashboard";

export const dynamic = "force-dynamic";

export const GET = dashboardEventStream;
