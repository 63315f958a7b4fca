import { dashboardEventStream } from "@/server/http/handlers/live-dashboard";

export const dynamic = "force-dynamic";

export const GET = dashboardEventStream;
