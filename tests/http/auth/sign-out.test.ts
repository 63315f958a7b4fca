import { describe, expect, it } from "vitest";
import { baseUrl, uniqueEmail } from "@/tests/support/http";
import { signIn, signOut, trpc } from "@/tests/support/session";

// "Sign out" ends that session on the server: a copy of its cookie taken before signing out is
// refused afterwards, as the browser's own (cleared) cookie is. Other sessions of the user go on.

const sessionOf = async (cookie: string) =>
  (await (await fetch(`${baseUrl()}/api/auth/session`, { headers: { cookie } })).json()) as { user?: { email?: string } } | null;

describe("sign out", () => {
  it("ends the session on the server: a cookie copied before signing out no longer works; the user's other session does", async () => {
    const email = uniqueEmail("sign-out");
    const laptop = await signIn(email);
    const phone = await signIn(email);
    const copied = laptop.cookie;
    expect((await trpc("account.list", undefined, { cookie: copied })).status).toBe(200);
    expect((await sessionOf(copied))?.user?.email).toBe(email);

    const signedOut = await signOut(laptop.cookie);
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.getSetCookie().some((cookie) => /^authjs\.session-token=;/.test(cookie))).toBe(true);

    const refused = await trpc("account.list", undefined, { cookie: copied });
    expect(refused.status).toBe(401);
    expect(refused.error?.data.apiError.code).toBe("ERR1002");
    expect(await sessionOf(copied)).toBeNull();
    const page = await fetch(`${baseUrl()}/dashboard`, { headers: { cookie: copied }, redirect: "manual" });
    expect(page.headers.get("location")).toContain("/login");

    expect((await trpc("account.list", undefined, { cookie: phone.cookie })).status).toBe(200);
    expect((await sessionOf(phone.cookie))?.user?.email).toBe(email);
  });
});
