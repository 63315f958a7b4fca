import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { baseUrl, uniqueEmail } from "@/tests/support/http";
import { latestSignInLink, openLink, requestSignInLink, signIn, trpc } from "@/tests/support/session";

// Dashboard sign-in: magic links through the outbox, JWT session cookies, and
// tRPC answering in the one error table.

describe("magic-link sign-in", () => {
  it("e-mails a single-use link that opens a session on a new personal account", async () => {
    const email = uniqueEmail("signin");
    const asked = await requestSignInLink(email);
    expect(asked.status).toBe(200);
    expect(((await asked.json()) as { url: string }).url).toContain("/api/auth/verify-request");

    const link = await latestSignInLink(email);
    expect(new URL(link).origin).toBe(baseUrl());
    expect(new URL(link).pathname).toBe("/api/auth/callback/email");
    // Only a hash of the link's token is stored.
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(await db.verificationToken.count({ where: { token } })).toBe(0);
    expect(await db.verificationToken.count({ where: { identifier: email } })).toBe(1);

    const opened = await openLink(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`${baseUrl()}/dashboard`);
    const cookie = opened.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => c?.startsWith("authjs.session-token="));
    expect(cookie).toBeTruthy();
    expect(opened.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="))).toMatch(/HttpOnly/i);

    const accounts = await trpc("account.list", undefined, { cookie });
    expect(accounts.status).toBe(200);
    expect(accounts.data).toHaveLength(1);
    expect(accounts.data[0]).toMatchObject({ role: "primary_owner", plan: "free" });
    const account = await trpc("account.get", { accountId: accounts.data[0].accountId }, { cookie });
    expect(account.data.creditBalance).toBe("1.000");

    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(user.emailVerified).not.toBeNull();

    // Used once: the second visit is refused.
    const again = await openLink(link);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toContain("/login?error=Verification");
  });

  it("builds links from APP_URL, never from a forwarded host", async () => {
    const email = uniqueEmail("host");
    await requestSignInLink(email, { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });
    expect(new URL(await latestSignInLink(email)).origin).toBe(baseUrl());
  });

  it("a returning user signs in to the same account, without a second welcome credit", async () => {
    const email = uniqueEmail("again");
    const first = await signIn(email);
    const second = await signIn(email);
    const one = await trpc("account.list", undefined, { cookie: first.cookie });
    const two = await trpc("account.list", undefined, { cookie: second.cookie });
    expect(two.data).toEqual(one.data);
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(await db.ledgerEntry.count({ where: { sourceKey: `welcome:${user.id}` } })).toBe(1);
  });

  it("limits sign-in links per address", async () => {
    const email = uniqueEmail("flood");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const reply = await requestSignInLink(email);
      const body = (await reply.json()) as { url: string };
      statuses.push(body.url.includes("error=") ? 429 : reply.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
    expect(await db.emailOutbox.count({ where: { to: email, kind: "auth.sign_in" } })).toBe(5);
  });

  it("an unknown or forged token does not sign in", async () => {
    const email = uniqueEmail("forged");
    await requestSignInLink(email);
    const link = new URL(await latestSignInLink(email));
    link.searchParams.set("token", "0".repeat(64));
    const opened = await openLink(link.toString());
    expect(opened.headers.get("location")).toContain("error=Verification");
    expect(
      opened.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token=") && !c.startsWith("authjs.session-token=;")),
    ).toBe(false);
  });
});

describe("dashboard pages and tRPC without a session", () => {
  it("sends /dashboard to the sign-in page", async () => {
    const response = await fetch(`${baseUrl()}/dashboard`, { redirect: "manual" });
    expect([303, 307, 308]).toContain(response.status);
    expect(response.headers.get("location")).toContain("/login");
  });

  it("answers tRPC with ERR1002 and 401", async () => {
    const reply = await trpc("account.list", undefined);
    expect(reply.status).toBe(401);
    expect(reply.error?.data.apiError).toMatchObject({ code: "ERR1002", type: "authentication_failed" });
  });

  it("shows the link in the dev mailbox", async () => {
    const email = uniqueEmail("mailbox");
    await requestSignInLink(email);
    const page = await fetch(`${baseUrl()}/dev/mailbox?to=${encodeURIComponent(email)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Sign in to Darkroom");
    expect(html).toContain("/api/auth/callback/email?");
  });

  it("keeps the dev mailbox to this machine", async () => {
    // The suite's server trusts 127.0.0.1 as a proxy, so this plays a client on another machine.
    const remote = await fetch(`${baseUrl()}/dev/mailbox`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(remote.status).toBe(404);
    expect(await remote.text()).not.toContain("/api/auth/callback/email?");
  });
});

describe("tRPC speaks the error table", () => {
  it("another account is ERR1006, a member's write is ERR1003, bad input is ERR1001", async () => {
    const strangerEmail = uniqueEmail("stranger");
    const owner = await signIn(uniqueEmail("owner"));
    const stranger = await signIn(strangerEmail);
    const [account] = (await trpc("account.list", undefined, { cookie: owner.cookie })).data;

    const foreign = await trpc("account.get", { accountId: account.accountId }, { cookie: stranger.cookie });
    expect(foreign.status).toBe(404);
    expect(foreign.error?.data.apiError.code).toBe("ERR1006");

    const malformed = await trpc("account.get", { accountId: "not-a-uuid" }, { cookie: owner.cookie });
    expect(malformed.status).toBe(404);

    const strangerUser = await db.user.findUniqueOrThrow({ where: { email: strangerEmail } });
    await db.membership.create({ data: { accountId: account.accountId, userId: strangerUser.id, role: "member" } });
    const memberWrite = await trpc(
      "alerts.set",
      { accountId: account.accountId, thresholds: [1] },
      { cookie: stranger.cookie, mutation: true },
    );
    expect(memberWrite.status).toBe(403);
    expect(memberWrite.error?.data.apiError.code).toBe("ERR1003");

    const invalid = await trpc(
      "alerts.set",
      { accountId: account.accountId, thresholds: ["-2"] },
      { cookie: owner.cookie, mutation: true },
    );
    expect(invalid.status).toBe(400);
    expect(invalid.error?.data.apiError).toMatchObject({ code: "ERR1001", details: { fields: [{ field: "thresholds[0]" }] } });

    const notJson = await fetch(`${baseUrl()}/api/trpc/alerts.set`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl(), cookie: owner.cookie },
      body: "{",
    });
    expect(notJson.status).toBe(400);
  });
});
