import { downloadActivityExport } from "@/server/edge/http/handlers/dashboard-downloads";
import { methodNotAllowed } from "@/server/edge/http/v1-route";

// The activity page's download (server/edge/http/handlers/dashboard-downloads.ts).

export const dynamic = "force-dynamic";

export const GET = downloadActivityExport;

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
