import { uploadPlaygroundImage } from "@/server/edge/http/handlers/playground-upload";
import { methodNotAllowed } from "@/server/edge/http/v1-route";

// The playground's input-image uploads (server/edge/http/handlers/playground-upload.ts).

export const dynamic = "force-dynamic";

export const POST = uploadPlaygroundImage;

const refuse = methodNotAllowed(["POST"]);
export { refuse as GET, refuse as HEAD, refuse as PUT, refuse as PATCH, refuse as DELETE };
