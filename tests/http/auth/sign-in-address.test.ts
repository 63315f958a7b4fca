import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { requestSignInLink } from "@/tests/support/session";
import { clearOfSignInWindowEdge } from "@/tests/support/sign-in-window";

// The sign-in form sends a link to exactly one mailbox. Anything else (a list, a quoted local
// part, a trailing dot or comma, a second @) is answered exactly as a good address is, and
// nothing is sent or stored for it; the per-mailbox limit counts case, +tag and trailing-dot
// variants as the one mailbox they reach. Over the same endpoint the login page posts to.

const tagged = () => randomUUID().slice(0, 8);

async function ask(email: string) {
  const reply = await requestSignInLink(email);
  return { status: reply.status, body: (await reply.json()) as { url: string } };
}

const sentTo = async (fragment: string) =>
  (await db.emailOutbox.findMany({ where: { to: { contains: fragment }, kind: "auth.sign_in" }, select: { to: true } }))
    .map((mail) => mail.to)
    .sort();

describe("sign-in e-mail: one address, strictly", () => {
  it("answers anything but one mailbox as it answers a good address, and sends it nothing", async () => {
    const tag = tagged();
    const good = await ask(`good-${tag}@v.test`);
    expect(good.status).toBe(200);
    expect(good.body.url).toContain("/api/auth/verify-request");

    const malformed = [
      `victim-${tag}@v.test,`,
      `victim-${tag}@v.test.`,
      `"mallory-${tag}@evil.test"@b.test`,
      `bob-${tag}@b.test,mallory-${tag}@evil.test`,
      `bob-${tag}@b.test;mallory-${tag}@evil.test`,
      `bob-${tag}@b.test mallory-${tag}@evil.test`,
      `mallory-${tag}@evil.test@b.test`,
      `Mallory <mallory-${tag}@evil.test>`,
      `victim-${tag}@v.test\r\nbcc: mallory-${tag}@evil.test`,
      `victim-${tag}\uff20v.test`,
      `victim-${tag}@localhost`,
      `victim-${tag}@[127.0.0.1]`,
      `victim-${tag}@v..test`,
    ];
    for (const email of malformed) expect(await ask(email), email).toEqual(good);

    // The outbox is what goes to Resend as `to`: only the good address. No token is kept for the rest.
    expect(await sentTo(tag)).toEqual([`good-${tag}@v.test`]);
    expect(await db.verificationToken.count({ where: { identifier: { contains: tag } } })).toBe(1);
  });

  it("counts case, +tag and trailing-dot variants against the one mailbox they reach", async () => {
    await clearOfSignInWindowEdge();
    const name = `victim-${tagged()}`;
    for (const email of [`${name}@v.test`, `${name.toUpperCase()}@V.TEST`, `${name}+1@v.test`, `${name}+news@v.test.`, `${name}@v.test,`]) {
      expect((await ask(email)).body.url, email).toContain("/api/auth/verify-request");
    }
    const refused = await ask(`${name}+2@v.test`);
    expect(refused.status).toBe(200);
    expect(refused.body.url).toContain("error=AccessDenied");
    // Sent: the three spellings that are one mailbox each; not the malformed two, not the refused one.
    expect(await sentTo(name)).toEqual([`${name}+1@v.test`, `${name}@v.test`, `${name}@v.test`]);
  });
});
