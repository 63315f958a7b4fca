import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { PRIVACY_VERSION, TERMS_VERSION } from "@/server/consent/legal-versions";
import { createTestAccount } from "@/tests/support/fixtures";
import { uniqueEmail } from "@/tests/support/http";
import { latestSignInLink, openLink, requestSignInLink, signIn, signOut } from "@/tests/support/session";

// The `auth` and `consent` activity over the real Auth.js e-mail flow: sign-in, sign-out and refused
// links land on each account of the user, with the user as actor and no token or IP anywhere;
// the first sign-in records the Terms and Privacy versions the login page shows.

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0";

const events = (accountId: string, category: "auth" | "consent") =>
  db.activityEvent.findMany({
    where: { accountId, category },
    orderBy: [{ createdAt: "asc" }, { action: "asc" }],
    select: { action: true, actor: true, description: true, metadata: true },
  });

async function personalAccountOf(email: string) {
  const user = await db.user.findUniqueOrThrow({
    where: { email },
    include: { memberships: { where: { role: "primary_owner" }, select: { accountId: true } } },
  });
  return { user, accountId: user.memberships[0]!.accountId };
}

describe("auth activity", () => {
  it("a first sign-in records the consent with its versions, then the sign-in, by the user", async () => {
    const email = uniqueEmail("consent");
    await requestSignInLink(email);
    const opened = await fetch(await latestSignInLink(email), { redirect: "manual", headers: { "user-agent": FIREFOX } });
    expect(opened.status).toBe(302);
    const { user, accountId } = await personalAccountOf(email);

    expect(user.termsVersion).toBe(TERMS_VERSION);
    expect(user.privacyVersion).toBe(PRIVACY_VERSION);
    expect(user.termsAcceptedAt).toBeInstanceOf(Date);
    expect(Date.now() - user.termsAcceptedAt!.getTime()).toBeLessThan(60_000);

    const consent = await events(accountId, "consent");
    expect(consent.map((event) => event.action).sort()).toEqual(["consent.privacy_accepted", "consent.terms_accepted"]);
    for (const event of consent) {
      expect(event.actor).toBe(user.id);
      expect(event.metadata).toMatchObject({ terms_version: TERMS_VERSION, privacy_version: PRIVACY_VERSION, accepted_by: "sign_in" });
    }
    expect(consent.find((event) => event.action === "consent.terms_accepted")?.description).toContain(TERMS_VERSION);

    const auth = await events(accountId, "auth");
    expect(auth).toEqual([
      {
        action: "auth.signed_in",
        actor: user.id,
        description: "Signed in for the first time with an e-mail link",
        metadata: { method: "email_link", browser: "Firefox" },
      },
    ]);
  });

  it("a returning user's sign-in is recorded again, the consent only once", async () => {
    const email = uniqueEmail("returning");
    await signIn(email);
    await signIn(email);
    const { accountId } = await personalAccountOf(email);
    expect((await events(accountId, "consent")).length).toBe(2);
    const auth = await events(accountId, "auth");
    expect(auth.map((event) => event.action)).toEqual(["auth.signed_in", "auth.signed_in"]);
    expect(auth[1]?.description).toBe("Signed in with an e-mail link");
    // fetch from Node is not a browser family we name.
    expect(auth[1]?.metadata).toEqual({ method: "email_link", browser: "other" });
  });

  it("a user made by the operator consents at their first sign-in, on each of their accounts", async () => {
    const owner = await createTestAccount();
    const team = await createTestAccount();
    await db.membership.create({ data: { accountId: team.accountId, userId: owner.userId, role: "member" } });
    expect((await db.user.findUniqueOrThrow({ where: { id: owner.userId } })).termsVersion).toBeNull();

    await signIn(owner.email);
    for (const accountId of [owner.accountId, team.accountId]) {
      const consent = await events(accountId, "consent");
      expect(consent.map((event) => `${event.actor}:${event.action}`).sort()).toEqual([
        `${owner.userId}:consent.privacy_accepted`,
        `${owner.userId}:consent.terms_accepted`,
      ]);
      expect((await events(accountId, "auth")).map((event) => `${event.actor}:${event.action}`)).toEqual([
        `${owner.userId}:auth.signed_in`,
      ]);
    }
  });

  it("a user whose terms version is old agrees to the new one at the next sign-in", async () => {
    const email = uniqueEmail("old-terms");
    await signIn(email);
    const { user, accountId } = await personalAccountOf(email);
    await db.user.update({ where: { id: user.id }, data: { termsVersion: "2020-01-01" } });
    await signIn(email);
    const consent = await events(accountId, "consent");
    expect(consent.map((event) => event.action).sort()).toEqual([
      "consent.privacy_accepted",
      "consent.terms_accepted",
      "consent.terms_accepted",
    ]);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).termsVersion).toBe(TERMS_VERSION);
  });

  it("signing out is recorded with the browser family", async () => {
    const email = uniqueEmail("signout");
    const { cookie } = await signIn(email);
    const reply = await signOut(cookie, { "user-agent": FIREFOX });
    expect(reply.status).toBeLessThan(400);
    expect(reply.headers.getSetCookie().some((c) => /^authjs\.session-token=;/.test(c))).toBe(true);
    const { user, accountId } = await personalAccountOf(email);
    const auth = await events(accountId, "auth");
    expect(auth.at(-1)).toEqual({ action: "auth.signed_out", actor: user.id, description: "Signed out", metadata: { browser: "Firefox" } });
  });

  it("a link opened twice is refused and recorded as already used", async () => {
    const email = uniqueEmail("reused");
    await requestSignInLink(email);
    const link = await latestSignInLink(email);
    expect((await openLink(link)).status).toBe(302);
    const again = await fetch(link, { redirect: "manual", headers: { "user-agent": FIREFOX } });
    expect(again.headers.get("location")).toContain("error=Verification");

    const { user, accountId } = await personalAccountOf(email);
    const refused = (await events(accountId, "auth")).filter((event) => event.action === "auth.sign_in_refused");
    expect(refused).toEqual([
      {
        action: "auth.sign_in_refused",
        actor: user.id,
        description: "Sign-in refused: the link was already used",
        metadata: { reason: "link_used", browser: "Firefox" },
      },
    ]);
    // Neither the link's token nor its hash is in the feed.
    const token = new URL(link).searchParams.get("token")!;
    const stored = await db.verificationToken.findFirstOrThrow({ where: { identifier: email } });
    const feed = JSON.stringify(await db.activityEvent.findMany({ where: { accountId } }));
    expect(feed).not.toContain(token);
    expect(feed).not.toContain(stored.token);
    expect(feed).not.toContain("127.0.0.1");
  });

  it("an expired link is refused and recorded as expired", async () => {
    const email = uniqueEmail("expired");
    await signIn(email);
    await requestSignInLink(email);
    const link = await latestSignInLink(email);
    await db.verificationToken.updateMany({ where: { identifier: email, usedAt: null }, data: { expires: new Date(Date.now() - 1000) } });
    const opened = await openLink(link);
    expect(opened.headers.get("location")).toContain("error=Verification");
    const { accountId } = await personalAccountOf(email);
    const refused = (await events(accountId, "auth")).filter((event) => event.action === "auth.sign_in_refused");
    expect(refused.map((event) => event.metadata)).toEqual([{ reason: "link_expired", browser: "other" }]);
    expect(refused[0]?.description).toBe("Sign-in refused: the link had expired");
  });

  it("a forged token records nothing; a refused link of an unknown address creates nobody", async () => {
    const email = uniqueEmail("forged");
    await signIn(email);
    await requestSignInLink(email);
    const link = new URL(await latestSignInLink(email));
    link.searchParams.set("token", "0".repeat(64));
    expect((await openLink(link.toString())).headers.get("location")).toContain("error=Verification");
    const { accountId } = await personalAccountOf(email);
    expect((await events(accountId, "auth")).map((event) => event.action)).toEqual(["auth.signed_in"]);

    const stranger = uniqueEmail("nobody");
    await requestSignInLink(stranger);
    const strangerLink = await latestSignInLink(stranger);
    await db.verificationToken.updateMany({ where: { identifier: stranger }, data: { expires: new Date(Date.now() - 1000) } });
    expect((await openLink(strangerLink)).headers.get("location")).toContain("error=Verification");
    expect(await db.user.count({ where: { email: stranger } })).toBe(0);
  });

  it("a link refused by the per-address limit is recorded once per window for an existing user", async () => {
    const email = uniqueEmail("limited");
    await signIn(email);
    for (let i = 0; i < 4; i += 1) await requestSignInLink(email);
    const refusedReplies: string[] = [];
    for (let i = 0; i < 5; i += 1) refusedReplies.push(((await (await requestSignInLink(email)).json()) as { url: string }).url);
    expect(refusedReplies.every((url) => url.includes("error="))).toBe(true);

    const { accountId } = await personalAccountOf(email);
    const refused = (await events(accountId, "auth")).filter((event) => event.action === "auth.sign_in_refused");
    // Three a window at most: asking for links cannot flood the feed.
    expect(refused.length).toBe(3);
    expect(refused[0]).toMatchObject({
      description: "Sign-in link refused: too many links were asked for this address",
      metadata: { reason: "rate_limited" },
    });
  });
});
