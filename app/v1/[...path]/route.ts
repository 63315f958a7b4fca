import { errorResponse, newRequestId } from "@/server/edge/http/envelope";
import { ApiError } from "@/server/base/error-table";

// Any /v1 path no route claims: the error envelope, never Next's HTML 404.

export const dynamic = "force-dynamic";

async function notFound(request: Request) {
  const path = new URL(request.url).pathname;
  return errorResponse(
    new ApiError("ERR1006", `No route ${request.method} ${path}. See GET /v1/openapi.json.`, { path, method: request.method }),
    newRequestId(),
  );
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
