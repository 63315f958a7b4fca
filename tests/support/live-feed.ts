import { expect } from "vitest";
import { db } from "@/server/base/db";
import type { MemberRole } from "@/server/base/generated/prisma/enums";
import { uniqueEmail } from "@/tests/support/http";
import { signIn, trpc } from "@/tests/support/session";
import { openSse, type SseStream } from "@/tests/support/sse-client";

// The dashboard's live feed (GET /api/live) as a browser tab opens it: the session cookie, and the
// Sec-Fetch-Site a browser sends for its own page's EventSource. A team to hold it in: its owner
// signs in and creates it, each further person signs in and is given a role.

export const ownPage = { "sec-fetch-site": "same-origin" };

export function openLiveFeed(
  cookie: string,
  accountId: string,
  options: { base?: string; headers?: Record<string, string> } = {},
): Promise<SseStream> {
  return openSse(`/api/live?account=${encodeURIComponent(accountId)}`, {
    base: options.base,
    headers: { cookie, ...(options.headers ?? ownPage) },
  });
}

export type Person = { userId: string; email: string; cookie: string };

export async function signedInPerson(label: string): Promise<Person> {
  const email = uniqueEmail(label);
  const { cookie } = await signIn(email);
  const { id } = await db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  return { userId: id, email, cookie };
}

/** A team account created by `owner` (its primary owner) over the dashboard; answers its id. */
export async function teamOf(owner: Person, name = "Live Team"): Promise<string> {
  const created = await trpc("team.createAccount", { name }, { cookie: owner.cookie, mutation: true });
  expect(created.status).toBe(200);
  return created.data.account_id as string;
}

export async function join(accountId: string, person: Person, role: MemberRole = "member"): Promise<void> {
  await db.membership.create({ data: { accountId, userId: person.userId, role } });
}
