import { NextResponse, type NextRequest } from "next/server";
import { env, appUrl } from "@/server/base/env";
import { isHttpsAppUrl, newScriptNonce, pageContentSecurityPolicy } from "@/server/edge/http/security-headers";

// Pages only (see `matcher`): each request gets a fresh script nonce in its Content-Security-Policy.
// Next reads the policy from the request's header and puts the nonce on the scripts it renders;
// the browser gets the same policy on the answer. The other security headers are on every answer
// already (server/start/http-server.ts). /v1, /api and /files never pass through here: a proxy
// would cost /v1 time, and read request bodies it has no use for. Nor do the static files of public/
// (robots.txt, examples/): they are not pages, and get the policy of answers that are not.

export function proxy(request: NextRequest) {
  const policy = pageContentSecurityPolicy({
    nonce: newScriptNonce(),
    https: isHttpsAppUrl(appUrl()),
    dev: env().NODE_ENV === "development",
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [{ source: "/((?!api/|v1/|v1$|files/|_next/static/|_next/image|favicon\\.ico$|icon\\.svg$|robots\\.txt$|examples/).*)" }],
};
