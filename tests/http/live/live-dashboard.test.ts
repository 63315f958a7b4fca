import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { DASHBOARD_STREAMS_PER_ACCOUNT, DASHBOARD_STREAMS_PER_SESSION } from "@/server/live/stream-slots";
import { removeMember } from "@/server/team/remove-member";
import { inTransaction } from "@/server/base/transaction";
import { seedFinishedImage } from "@/tests/support/generations";
import { join, openLiveFeed, signedInPerson, teamOf, type Person } from "@/tests/support/live-feed";
import { signIn, signOut, trpc } from "@/tests/support/session";
import { ofGeneration, type SseStream } from "@/tests/support/sse-client";
import { until } from "@/tests/support/until";

// The dashboard's live feed (GET /api/live, issue #43) over real HTTP with real session cookies:
// a stream ends when its access does (removed, left, signed out, signed out everywhere, session
// expired, session version moved, account deleted), at once when the action runs on this
// instance and on the shared tick when it happens elsewhere (here: from the test process, as the
// CLI or another instance would); a role change keeps it; cross-site requests are refused; and
// the per-session and per-account caps hold.

async function open(person: Person, accountId: string): Promise<SseStream> {
  const stream = await openLiveFeed(person.cookie, accountId);
  expect(stream.status).toBe(200);
  await stream.waitForComment((comment) => comment === "stream open");
  return stream;
}

/** A generation of the account appears on `stream` (it is still live and delivering). */
async function stillDelivers(stream: SseStream, accountId: string) {
  const { id } = await seedFinishedImage(accountId);
  await stream.waitFor((event) => ofGeneration(id)(event) && event.event === "generation.created");
}

async function team() {
  const alice = await signedInPerson("live-alice");
  const bob = await signedInPerson("live-bob");
  const accountId = await teamOf(alice);
  await join(accountId, bob, "owner");
  return { alice, bob, accountId };
}

/**
 * A stream whose access is taken from the test process (no request to the app), so only the
 * hub's batched check can end it: once it has, every check before it has run too.
 */
async function tickCanary(accountId: string) {
  const carol = await signedInPerson("live-carol");
  await join(accountId, carol, "member");
  const stream = await open(carol, accountId);
  return async () => {
    await db.authSession.updateMany({ where: { userId: carol.userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await stream.ended;
  };
}

describe("a dashboard stream ends with its access", () => {
  it("team.remove: the removed member's stream ends, and new requests are refused; the owner's goes on", async () => {
    const { alice, bob, accountId } = await team();
    const bobs = await open(bob, accountId);
    const alices = await open(alice, accountId);
    await stillDelivers(bobs, accountId);
    const removed = await trpc("team.remove", { accountId, userId: bob.userId }, { cookie: alice.cookie, mutation: true });
    expect(removed.status).toBe(200);
    await bobs.ended;
    expect((await openLiveFeed(bob.cookie, accountId)).status).toBe(404);
    await stillDelivers(alices, accountId);
    alices.close();
  });

  it("team.leave: the member's stream of that account ends; their stream of another account goes on", async () => {
    const { bob, accountId } = await team();
    const [bobsHome] = (await trpc("account.list", undefined, { cookie: bob.cookie })).data as Array<{ accountId: string }>;
    const team1 = await open(bob, accountId);
    const home = await open(bob, bobsHome!.accountId);
    const left = await trpc("team.leave", { accountId }, { cookie: bob.cookie, mutation: true });
    expect(left.status).toBe(200);
    await team1.ended;
    await stillDelivers(home, bobsHome!.accountId);
    home.close();
  });

  it("sign-out: that session's stream ends; the user's other session's goes on", async () => {
    const { bob, accountId } = await team();
    const phone = { ...bob, cookie: (await signIn(bob.email)).cookie };
    const laptopStream = await open(bob, accountId);
    const phoneStream = await open(phone, accountId);
    expect((await signOut(bob.cookie)).status).toBe(200);
    await laptopStream.ended;
    expect((await openLiveFeed(bob.cookie, accountId)).status).toBe(401);
    await stillDelivers(phoneStream, accountId);
    phoneStream.close();
  });

  it("sign out everywhere: every stream of the user ends, other users' go on", async () => {
    const { alice, bob, accountId } = await team();
    const phone = { ...bob, cookie: (await signIn(bob.email)).cookie };
    const streams = [await open(bob, accountId), await open(phone, accountId)];
    const alices = await open(alice, accountId);
    const done = await trpc("settings.signOutEverywhere", undefined, { cookie: bob.cookie, mutation: true });
    expect(done.status).toBe(200);
    await Promise.all(streams.map((stream) => stream.ended));
    await stillDelivers(alices, accountId);
    alices.close();
  });

  it("account deletion: every member's stream of the account ends", async () => {
    const { alice, bob, accountId } = await team();
    const streams = [await open(alice, accountId), await open(bob, accountId)];
    const deleted = await trpc("settings.deleteAccount", { accountId, confirmName: "Live Team" }, { cookie: alice.cookie, mutation: true });
    expect(deleted.status).toBe(200);
    await Promise.all(streams.map((stream) => stream.ended));
  });

  it("on the tick, for changes made elsewhere: the session expires, its version moves, the membership goes, the account is marked deleted", async () => {
    const { alice, bob, accountId } = await team();
    const alices = await open(alice, accountId);
    const dave = await signedInPerson("live-dave");
    await join(accountId, dave, "member");
    const erin = await signedInPerson("live-erin");
    await join(accountId, erin, "member");
    const [expiring, versioned, removed] = [await open(bob, accountId), await open(dave, accountId), await open(erin, accountId)];

    await db.authSession.updateMany({ where: { userId: bob.userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expiring.ended;
    await db.user.update({ where: { id: dave.userId }, data: { sessionVersion: { increment: 1 } } });
    await versioned.ended;
    await inTransaction((tx) => removeMember(tx, { accountId, userId: erin.userId, actor: "system" }));
    await removed.ended;
    // Alice's membership stays; the account's deletion alone ends her stream.
    await db.account.update({ where: { id: accountId }, data: { deletedAt: new Date() } });
    await alices.ended;
  });

  it("a role change keeps the stream: every role reads the live feed", async () => {
    const { alice, bob, accountId } = await team();
    const bobs = await open(bob, accountId);
    const canary = await tickCanary(accountId);
    const changed = await trpc(
      "team.changeRole",
      { accountId, userId: bob.userId, role: "member" },
      { cookie: alice.cookie, mutation: true },
    );
    expect(changed.status).toBe(200);
    // The canary ends on a check that ran after the change, which judged bob's stream as well.
    await canary();
    await stillDelivers(bobs, accountId);
    bobs.close();
  });
});

describe("GET /api/live refuses other sites", () => {
  it("403 for a cross-site or same-site request; a same-origin one and one with neither header are served", async () => {
    const { bob, accountId } = await team();
    const refusals: Array<Record<string, string>> = [
      { origin: "https://evil.test", "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "cross-site" },
      { origin: "https://evil.test" },
      { "sec-fetch-site": "same-site" },
      { origin: "null" },
    ];
    for (const headers of refusals)
      expect((await openLiveFeed(bob.cookie, accountId, { headers })).status, JSON.stringify(headers)).toBe(403);
    const served: Array<Record<string, string>> = [{ "sec-fetch-site": "same-origin" }, {}];
    for (const headers of served) {
      const stream = await openLiveFeed(bob.cookie, accountId, { headers });
      expect(stream.status).toBe(200);
      stream.close();
    }
  });
});

describe("dashboard stream caps", () => {
  it(`a session holds at most ${DASHBOARD_STREAMS_PER_SESSION}: the next is a plain 429 with Retry-After; another session is served; a closed one frees its slot`, async () => {
    const { bob, accountId } = await team();
    const streams: SseStream[] = [];
    for (let index = 0; index < DASHBOARD_STREAMS_PER_SESSION; index += 1) streams.push(await open(bob, accountId));
    const refused = await openLiveFeed(bob.cookie, accountId);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await open({ ...bob, cookie: (await signIn(bob.email)).cookie }, accountId);
    streams.shift()!.close();
    let again: SseStream | null = null;
    await until(async () => {
      again = await openLiveFeed(bob.cookie, accountId);
      return again.status === 200;
    }, "a stream slot freed by the closed stream");
    for (const stream of [...streams, other, again!]) stream.close();
  });

  it(`an account holds at most ${DASHBOARD_STREAMS_PER_ACCOUNT} over all its members' sessions`, async () => {
    const { alice, accountId } = await team();
    const streams: SseStream[] = [];
    let person = alice;
    for (let index = 0; index < DASHBOARD_STREAMS_PER_ACCOUNT; index += 1) {
      if (index > 0 && index % DASHBOARD_STREAMS_PER_SESSION === 0) {
        person = await signedInPerson("live-many");
        await join(accountId, person, "member");
      }
      streams.push(await open(person, accountId));
    }
    const latecomer = await signedInPerson("live-latecomer");
    await join(accountId, latecomer, "member");
    expect((await openLiveFeed(latecomer.cookie, accountId)).status).toBe(429);
    for (const stream of streams) stream.close();
  });
});
