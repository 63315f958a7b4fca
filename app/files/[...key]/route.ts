import { methodNotAllowed } from "@/server/edge/http/v1-route";
import { serveSignedFile } from "@/server/edge/http/serve-signed-file";

// Signed, expiring output-file downloads: ${APP_URL}/files/<key>?expires=&signature=.

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ key: string[] }> };

export async function GET(request: Request, context: Context) {
  return serveSignedFile(request, (await context.params).key.join("/"));
}

export const HEAD = GET;

const refuse = methodNotAllowed(["GET", "HEAD"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
