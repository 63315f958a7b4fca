import type { NextRequest } from "next/server";
import { handlers } from "@/server/auth";
import { appUrl } from "@/server/env";

// Auth.js builds sign-in links and redirects from the request's URL. Pin it to APP_URL, so a
// client's Host or X-Forwarded-Host can never put its own address into a magic link. A plain
// Request, because NextRequest spells every loopback address "localhost".
function onOurAddress(req: NextRequest): NextRequest {
  const url = new URL(req.url);
  const pinnedUrl = new URL(`${url.pathname}${url.search}`, appUrl());
  const pinned = new Request(pinnedUrl, {
    method: req.method,
    headers: req.headers,
    body: req.method === "GET" || req.method === "HEAD" ? undefined : req.body,
    duplex: "half",
  } as RequestInit);
  // next-auth reads nextUrl only when an operator sets AUTH_URL; give it one that agrees.
  return Object.assign(pinned, { nextUrl: pinnedUrl }) as unknown as NextRequest;
}

export const GET = (req: NextRequest) => handlers.GET(onOurAddress(req));
export const POST = (req: NextRequest) => handlers.POST(onOurAddress(req));
