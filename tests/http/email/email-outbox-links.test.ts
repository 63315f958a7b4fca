import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { listDevMailbox } from "@/server/email/dev-mailbox";
import { baseUrl, uniqueEmail } from "@/tests/support/http";
import { latestSignInLink, openLink, requestSignInLink, signIn, trpc } from "@/tests/support/session";
import { until } from "@/tests/support/until";

// Sign-in and invitation e-mails carry links that work like passwords, so the outbox never keeps
// them readable: the body is sealed under ENCRYPTION_KEY (and removed once Resend has it,
// tests/integration/email/send-email.test.ts). What the database holds for these rows, every
// column as text, contains neither the token nor the link; the dev mailbox still opens them.

/** Every column of the address's outbox rows, as PostgreSQL prints them. */
async function rawOutbox(email: string): Promise<string> {
  const rows = await db.$queryRaw<Array<{ raw: string }>>`SELECT row_to_json(e)::text AS raw FROM email_outbox e WHERE "to" = ${email}`;
  expect(rows.length).toBeGreaterThan(0);
  return rows.map((row) => row.raw).join("\n");
}

describe("the outbox keeps no usable link", () => {
  it("a sign-in e-mail: neither its token nor its link is in the row, and the link (from the dev mailbox) signs in", async () => {
    const email = uniqueEmail("sealed-sign-in");
    expect((await requestSignInLink(email)).status).toBe(200);
    const link = await latestSignInLink(email);
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(token).toMatch(/^[0-9a-f]{32,}$/);

    const raw = await rawOutbox(email);
    expect(raw).toContain('"status":"sent"');
    expect(raw).toContain('"kind":"auth.sign_in"');
    expect(raw).not.toContain(token);
    expect(raw).not.toContain("/api/auth/callback");
    expect(raw).not.toContain(baseUrl());

    const opened = await openLink(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`${baseUrl()}/dashboard`);
  });

  it("an invitation e-mail: neither its token nor its link is in the row", async () => {
    const { cookie } = await signIn(uniqueEmail("sealed-owner"));
    const [account] = (await trpc("account.list", undefined, { cookie })).data as Array<{ accountId: string }>;
    const invitee = uniqueEmail("sealed-invitee");
    const invited = await trpc(
      "team.invite",
      { accountId: account!.accountId, email: invitee, role: "member" },
      { cookie, mutation: true },
    );
    expect(invited.status).toBe(200);
    await until(async () => (await db.emailOutbox.count({ where: { to: invitee, status: "sent" } })) === 1, "the invitation e-mail sent");

    const [mail] = await listDevMailbox({ to: invitee, kind: "invitation.created" });
    const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1] ?? "";
    expect(token.length).toBeGreaterThan(20);
    const raw = await rawOutbox(invitee);
    expect(raw).not.toContain(token);
    expect(raw).not.toContain("/invitations/");
  });
});
