import { NextResponse } from "next/server";
import { currentUserId } from "@/server/auth";
import { fromOwnPage } from "@/server/auth/same-origin";
import { db } from "@/server/base/db";
import { appUrl } from "@/server/base/env";
import { invitationPath, inviteeSignInLink } from "@/server/team/invitee-sign-in-link";

// "Continue as <address>" on an invitation page: a POST (mail scanners prefetch GETs), answered by
// a redirect to Auth.js's callback with a one-time token (once per invitation, for an address with
// no login yet), or back to the invitation saying why not.
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  if (!fromOwnPage(request)) return new Response("Cross-site request refused", { status: 403 });
  const { token } = await params;
  const result = await inviteeSignInLink(db, { token, signedInUserId: await currentUserId() });
  return NextResponse.redirect(result.ok ? result.url : `${appUrl()}${invitationPath(token)}?sign_in=${result.reason}`, 303);
}
