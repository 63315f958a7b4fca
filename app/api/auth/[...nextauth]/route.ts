import type { NextRequest } from "next/server";
import { handlers } from "@/server/auth";
import { appUrl } from "@/server/base/env";
import { toApiError } from "@/server/base/error-table";
import { readCappedBody } from "@/server/edge/http/read-capped-body";

// Auth.js builds sign-in links and redirects from the request's URL. Pin it to APP_URL, so a
// client's Host or X-Forwarded-Host can never put its own address into a magic link. A plain
// Request, because NextRequest spells every loopback address "localhost".
function onOurAddress(req: NextRequest, body?: Uint8Array<ArrayBuffer>): NextRequest {
  const url = new URL(req.url);
  const pinnedUrl = new URL(`${url.pathname}${url.search}`, appUrl());
  const pinned = new Request(pinnedUrl, {
    method: req.method,
    headers: req.headers,
    body,
  });
  // next-auth reads nextUrl only when an operator sets AUTH_URL; give it one that agrees.
  return Object.assign(pinned, { nextUrl: pinnedUrl }) as unknown as NextRequest;
}

export const GET = (req: NextRequest) => handlers.GET(onOurAddress(req));
// Auth.js's forms are a few hundred bytes: a body past the cap is refused before it is read.
export async function POST(req: NextRequest) {
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await readCappedBody(req);
  } catch (error) {
    const refusal = toApiError(error);
    // No `Connection: close` (see app/api/trpc/[trpc]/route.ts): Node discards the rest unread.
    return Response.json({ error: refusal.toBody() }, { status: refusal.status });
  }
  return handlers.POST(onOurAddress(req, body));
}
