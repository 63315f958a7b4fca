import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { errorTable, type ErrorCode } from "@/server/base/error-table";
import type { AnyOperation } from "@/server/edge/http/define-operation";
import { v1Operations } from "@/server/edge/http/operations";
import { apiKeyScopes } from "@/server/keys/scopes";
import { addTeamMember, createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { api, expectSuccess } from "@/tests/support/http";
import { operationTemplates } from "@/tests/support/hostile-requests";
import { scanAppLog, scanDatabase } from "@/tests/support/secret-scan";
import { signIn } from "@/tests/support/session";
import {
  callProcedure,
  idKindOf,
  judgeTrpcReply,
  listProcedures,
  sampleOf,
  type ProcedureInfo,
  type RoleNeeded,
} from "@/tests/support/trpc-procedures";
import { drillSize, recordDrill, sized, timed } from "./drill";
import { afterLaterRequestLogged } from "@/tests/support/request-logs";

// R5 (issue #13), isolation: account A holds data of every kind; every /v1 operation (each of its
// path forms) and every tRPC procedure, read from the registries, is called with B's key or
// session against A's ids, with each lesser role of A, and with no credentials. Each call must be
// refused with the documented code, and no answer may carry any of A's ids or secrets that the
// request did not itself contain. Then the whole database and the app's log are searched for raw
// API keys, webhook secrets and raw client addresses.

const A_ROUNDS = sized(1, 3); // full size repeats every call (the answers must not change with load or order)

type Account = { accountId: string; userId: string; email: string };

/** A's records by the kind of id that names them (`generation_id` and `generationId` → generation). */
const idsOfA = new Map<string, string[]>();
/** Everything of A that must never reach anyone else: ids, raw keys, secrets, e-mails. */
const secretsOfA: string[] = [];
let a: Account;
let b: Account;
let aKey: string;
let bKey: string;
const sessions: Partial<Record<"bPrimary" | "aOwner" | "aMember" | "aPrimary", string>> = {};
let clientIp = 0;

/** A distinctive client address per request (the scan looks for them afterwards). */
const forwarded = () => ({ "x-forwarded-for": `100.72.5.${(clientIp++ % 250) + 1}` });

function remember(kind: string, ...values: string[]) {
  idsOfA.set(kind, [...(idsOfA.get(kind) ?? []), ...values]);
  secretsOfA.push(...values);
}

async function emailOf(userId: string) {
  return (await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } })).email as string;
}

beforeAll(async () => {
  a = await createTestAccount({ plan: "enterprise" });
  b = await createTestAccount({ plan: "enterprise" });
  const aOwner = await addTeamMember(a.accountId, "owner");
  const aMember = await addTeamMember(a.accountId, "member");
  const full = await createTestKey(a.accountId, { preset: "full", name: "A full" });
  aKey = full.key;
  bKey = (await createTestKey(b.accountId, { preset: "full", name: "B full" })).key;
  sessions.aPrimary = (await signIn(a.email)).cookie;
  sessions.aOwner = (await signIn(await emailOf(aOwner))).cookie;
  sessions.aMember = (await signIn(await emailOf(aMember))).cookie;
  sessions.bPrimary = (await signIn(b.email)).cookie;

  remember("account", a.accountId);
  remember("user", a.userId, aOwner, aMember);
  remember("key", full.apikey_id);
  secretsOfA.push(full.key, a.email, await emailOf(aOwner), await emailOf(aMember));

  // Through the app, as the dashboard does it: a key, a webhook endpoint (its secret, rolled once), an invitation.
  const asA = async (path: string, input: Record<string, unknown>) => {
    const reply = await callProcedure(
      path,
      "mutation",
      { accountId: a.accountId, ...input },
      { cookie: sessions.aPrimary, headers: forwarded() },
    );
    expect(reply.status, reply.text).toBe(200);
    return (reply.body as { result: { data: { json: Record<string, unknown> } } }).result.data.json;
  };
  const dashboardKey = await asA("keys.create", { name: "A dashboard key", preset: "full" });
  remember("key", dashboardKey.apikey_id as string);
  secretsOfA.push(dashboardKey.key as string);
  const endpoint = await asA("webhooks.create", { url: "https://93.184.215.14/darkroom", description: "A's endpoint" });
  remember("webhook", endpoint.webhook_id as string);
  secretsOfA.push(endpoint.secret as string);
  const rolled = await asA("webhooks.rollSecret", { webhookId: endpoint.webhook_id });
  secretsOfA.push(rolled.secret as string);
  const invitation = await asA("team.invite", { email: `invitee-${randomUUID().slice(0, 8)}@test.darkroom.local`, role: "member" });
  remember("invitation", invitation.invitationId as string);
  secretsOfA.push(invitation.email as string);
  // A comparison from the Compare page (its generation runs like any other).
  const comparison = await asA("playground.compare", {
    idempotencyKey: randomUUID(),
    columns: [{ identifier: "darkroom/lumen-image", body: { generation_prompt: "A's private comparison" } }],
  });
  remember("comparison", comparison.comparison_id as string);

  // Through /v1: a generation that runs to the end (ledger entries, request logs, provider attempts).
  const created = expectSuccess(await createImage(aKey, { generation_prompt: "A's private lighthouse" }, forwarded()), 202);
  await waitForStatus(aKey, created.generation_id);
  remember("generation", created.generation_id);

  // Rows the log views read, written directly (no receiver runs here): a delivery, a dead letter, a notification.
  const delivery = await db.webhookDelivery.create({
    data: {
      endpointId: endpoint.webhook_id as string,
      accountId: a.accountId,
      event: "generation.completed",
      eventKey: `r5:${randomUUID()}`,
      payload: { secret_marker: "A" },
      status: "failed",
    },
  });
  remember("delivery", delivery.id);
  const deadLetter = await db.deadLetter.create({
    data: {
      endpointId: endpoint.webhook_id as string,
      accountId: a.accountId,
      event: "generation.completed",
      eventKey: `r5:${randomUUID()}`,
      payload: { secret_marker: "A" },
      reason: "r5 fixture",
    },
  });
  remember("deadLetter", deadLetter.id);
  const notification = await db.notification.create({
    data: { accountId: a.accountId, kind: "test.r5", title: "A's notice", body: "A only" },
  });
  remember("notification", notification.id);
  // Every secret is a real value: an undefined one would match the text "undefined" anywhere.
  expect(secretsOfA.every((secret) => typeof secret === "string" && secret.length >= 8)).toBe(true);
  expect(secretsOfA.filter((secret) => /^(dkr_|whsec_)/.test(secret))).toHaveLength(4);
}, 120_000);

type Outcome = { refused: Map<string, number>; answeredWithoutLeak: number; leaks: string[]; wrong: string[]; calls: number };

const newOutcome = (): Outcome => ({ refused: new Map(), answeredWithoutLeak: 0, leaks: [], wrong: [], calls: 0 });

/** A's secrets in `text` that `sent` (the request) did not itself carry: echoing an input back reveals nothing. */
function leaksIn(text: string, sent: string): string[] {
  return secretsOfA.filter((secret) => text.includes(secret) && !sent.includes(secret));
}

function noteAnswer(
  outcome: Outcome,
  label: string,
  status: number,
  code: string | null,
  text: string,
  sent: string,
  expected: ErrorCode | "no leak",
) {
  outcome.calls += 1;
  const leaked = leaksIn(text, sent);
  if (leaked.length) outcome.leaks.push(`${label}: answer carries ${leaked.map((secret) => secret.slice(0, 12)).join(", ")}`);
  if (status >= 500) outcome.wrong.push(`${label}: ${status}`);
  if (expected === "no leak") {
    if (status < 300) outcome.answeredWithoutLeak += 1;
    else if (code) outcome.refused.set(code, (outcome.refused.get(code) ?? 0) + 1);
    return;
  }
  if (code !== expected || status !== errorTable[expected].status)
    outcome.wrong.push(`${label}: expected ${expected}, got ${status} ${code ?? ""} ${text.slice(0, 160)}`);
  else outcome.refused.set(code, (outcome.refused.get(code) ?? 0) + 1);
}

// ---- /v1 ----

/** A's id for a path placeholder named like an id; a model placeholder gets a real model. */
function v1Params(template: string): { path: string; hasIds: boolean } {
  let hasIds = false;
  const path = template.replace(/\{([^}]+)\}/g, (_all, name: string) => {
    if (/model/i.test(name)) return template.includes("/video/") ? "darkroom/lumen-video" : "darkroom/lumen-image";
    const kind = idKindOf(name);
    const id = kind ? idsOfA.get(kind)?.[0] : undefined;
    if (!id) throw new Error(`no record of A for {${name}} in ${template}: add one to the R5 fixture`);
    hasIds = true;
    return id;
  });
  return { path, hasIds };
}

function errorCodeOfV1(body: unknown): string | null {
  return (body as { error?: { code?: string } } | null)?.error?.code ?? null;
}

async function v1Call(operation: AnyOperation, path: string, key: string | undefined) {
  const reply = await api(path, { key, method: operation.method, body: operation.body ? {} : undefined, headers: forwarded() });
  return { status: reply.status, code: errorCodeOfV1(reply.body), text: JSON.stringify(reply.body) };
}

// ---- tRPC ----

/** The procedure's input with every id-like field set to A's record (accountId to `account`, when given). */
function trpcInput(procedure: ProcedureInfo, account: string | null): { input: Record<string, unknown>; otherIds: number } {
  const input: Record<string, unknown> = {};
  let otherIds = 0;
  for (const [field, schema] of Object.entries(procedure.fields)) {
    const kind = idKindOf(field, procedure.path);
    if (field === "accountId") {
      input.accountId = account ?? a.accountId;
    } else if (kind) {
      const ids = idsOfA.get(kind);
      if (!ids) throw new Error(`no record of A for ${procedure.path}'s ${field}: add one to the R5 fixture`);
      input[field] = field.endsWith("s") ? ids : ids[0];
      otherIds += 1;
    } else {
      const value = sampleOf(schema);
      if (value !== undefined) input[field] = value;
    }
  }
  return { input, otherIds };
}

const lesserRoles: Record<RoleNeeded, Array<"aMember" | "aOwner">> = {
  public: [],
  "signed-in": [],
  member: [],
  owner: ["aMember"],
  primary_owner: ["aMember", "aOwner"],
};

async function trpcCall(procedure: ProcedureInfo, input: Record<string, unknown>, cookie: string | undefined) {
  const reply = await callProcedure(procedure.path, procedure.type, input, { cookie, headers: forwarded() });
  const verdict = judgeTrpcReply(reply);
  return { status: reply.status, code: verdict.code, text: reply.text, problem: verdict.problem };
}

describe("R5 isolation", () => {
  it(
    "every /v1 operation: B's key on A's ids, A's keys without the scope, no key: refused, nothing of A leaks",
    async () => {
      const byCase = { "B's key": newOutcome(), "lesser scope": newOutcome(), "no key": newOutcome() };
      const lackingKeys = new Map<string, string>();
      for (const scope of apiKeyScopes) {
        lackingKeys.set(
          scope,
          (await createTestKey(a.accountId, { scopes: apiKeyScopes.filter((other) => other !== scope), name: `A without ${scope}` })).key,
        );
      }
      const forms = v1Operations.flatMap((operation) => operationTemplates(operation).map((template) => ({ operation, template })));
      const { durationMs } = await timed(async () => {
        for (let round = 0; round < A_ROUNDS; round += 1) {
          for (const { operation, template } of forms) {
            const { path, hasIds } = v1Params(template);
            const label = `${operation.method} ${template}`;
            let reply = await v1Call(operation, path, bKey);
            noteAnswer(byCase["B's key"], `B ${label}`, reply.status, reply.code, reply.text, path, hasIds ? "ERR1006" : "no leak");
            reply = await v1Call(operation, path, lackingKeys.get(operation.scope));
            noteAnswer(
              byCase["lesser scope"],
              `A without ${operation.scope} ${label}`,
              reply.status,
              reply.code,
              reply.text,
              path,
              "ERR1003",
            );
            reply = await v1Call(operation, path, undefined);
            noteAnswer(byCase["no key"], `no key ${label}`, reply.status, reply.code, reply.text, path, "ERR1002");
          }
        }
      });
      const figures: Record<string, number | string> = {
        "operations in the registry": v1Operations.length,
        "path forms called": forms.length,
      };
      for (const [name, outcome] of Object.entries(byCase)) {
        figures[`${name}: calls`] = outcome.calls;
        figures[`${name}: refused`] = [...outcome.refused].map(([code, count]) => `${code}×${count}`).join(", ");
        if (outcome.answeredWithoutLeak) figures[`${name}: answered (B's own data)`] = outcome.answeredWithoutLeak;
        figures[`${name}: leaks`] = outcome.leaks.length;
        figures[`${name}: wrong answers`] = outcome.wrong.length;
      }
      recordDrill("v1", {
        drill: "R5",
        title: "Isolation: every /v1 operation",
        size: drillSize(),
        durationMs,
        figures,
        checked: [
          "B's key on A's generation ids: ERR1006 (404) on every path form, never ERR1003 or the record",
          "B's key where no id is named: B's own data only, none of A's ids, keys, secrets or e-mails",
          "A's key lacking the operation's scope: ERR1003 (403)",
          "no key: ERR1002 (401)",
        ],
      });
      const all = Object.values(byCase);
      expect(all.flatMap((outcome) => outcome.leaks)).toEqual([]);
      expect(all.flatMap((outcome) => outcome.wrong)).toEqual([]);
    },
    sized(60_000, 300_000),
  );

  it(
    "every tRPC procedure: B's session on A's ids, A's lesser roles, no session: refused, nothing of A leaks",
    async () => {
      const procedures = listProcedures();
      const byCase = {
        "B in A's account": newOutcome(),
        "B's account, A's ids": newOutcome(),
        "lesser role": newOutcome(),
        "no session": newOutcome(),
      };
      const malformed: string[] = [];
      const { durationMs } = await timed(async () => {
        for (let round = 0; round < A_ROUNDS; round += 1) {
          for (const procedure of procedures) {
            const note = (
              outcome: Outcome,
              label: string,
              reply: Awaited<ReturnType<typeof trpcCall>>,
              sent: unknown,
              expected: ErrorCode | "no leak",
            ) => {
              if (reply.problem) malformed.push(`${label}: ${reply.problem}`);
              noteAnswer(outcome, label, reply.status, reply.code, reply.text, JSON.stringify(sent), expected);
            };
            const accountLevel = procedure.role === "member" || procedure.role === "owner" || procedure.role === "primary_owner";
            const inA = trpcInput(procedure, a.accountId);
            if (procedure.role !== "public")
              note(
                byCase["no session"],
                `no session ${procedure.path}`,
                await trpcCall(procedure, inA.input, undefined),
                inA.input,
                "ERR1002",
              );
            else
              note(
                byCase["no session"],
                `no session ${procedure.path}`,
                await trpcCall(procedure, inA.input, undefined),
                inA.input,
                "no leak",
              );
            if (accountLevel) {
              note(
                byCase["B in A's account"],
                `B ${procedure.path} in A`,
                await trpcCall(procedure, inA.input, sessions.bPrimary),
                inA.input,
                "ERR1006",
              );
              const inB = trpcInput(procedure, b.accountId);
              // Naming A's records from B's account: refused, or B's own view (a filter that matches
              // nothing, `marked: 0`); that nothing of A changed is checked after the loop.
              if (inB.otherIds > 0) {
                note(
                  byCase["B's account, A's ids"],
                  `B ${procedure.path} in B`,
                  await trpcCall(procedure, inB.input, sessions.bPrimary),
                  inB.input,
                  "no leak",
                );
              }
              for (const role of lesserRoles[procedure.role]) {
                note(
                  byCase["lesser role"],
                  `${role} ${procedure.path}`,
                  await trpcCall(procedure, inA.input, sessions[role]),
                  inA.input,
                  "ERR1003",
                );
              }
            }
          }
        }
      });

      // A's records are as they were: nothing was changed through the refused calls.
      const [keyStatus, endpoint, invitation, memberships, generation, readsOfA] = await Promise.all([
        api("/v1/status", { key: aKey }),
        db.webhookEndpoint.findUnique({ where: { id: idsOfA.get("webhook")?.[0] } }),
        db.invitation.findUnique({ where: { id: idsOfA.get("invitation")?.[0] } }),
        db.membership.findMany({ where: { accountId: a.accountId }, select: { role: true } }),
        db.generation.findUnique({ where: { id: idsOfA.get("generation")?.[0] } }),
        db.notificationRead.count({ where: { notificationId: idsOfA.get("notification")?.[0] } }),
      ]);
      const intact =
        keyStatus.status === 200 &&
        endpoint?.enabled === true &&
        invitation !== null &&
        invitation.revokedAt === null &&
        invitation.acceptedAt === null &&
        invitation.declinedAt === null &&
        memberships.length === 3 &&
        generation !== null &&
        !generation.removedAt &&
        readsOfA === 0;

      const figures: Record<string, number | string | boolean> = {
        "procedures in the router": procedures.length,
        "by least role": ["public", "signed-in", "member", "owner", "primary_owner"]
          .map((role) => `${role}×${procedures.filter((procedure) => procedure.role === role).length}`)
          .join(", "),
      };
      for (const [name, outcome] of Object.entries(byCase)) {
        figures[`${name}: calls`] = outcome.calls;
        figures[`${name}: refused`] = [...outcome.refused].map(([code, count]) => `${code}×${count}`).join(", ");
        if (outcome.answeredWithoutLeak) figures[`${name}: answered without A's data`] = outcome.answeredWithoutLeak;
        figures[`${name}: leaks`] = outcome.leaks.length;
        figures[`${name}: wrong answers`] = outcome.wrong.length;
      }
      figures["A's records intact afterwards"] = intact;
      recordDrill("trpc", {
        drill: "R5",
        title: "Isolation: every tRPC procedure",
        size: drillSize(),
        durationMs,
        figures,
        checked: [
          "B's session naming A's account: ERR1006 (404) for every account procedure",
          "B's session in B's account naming A's records: refused or B's own view, never any of A's data",
          "A's member on owner procedures, A's member and owner on primary-owner procedures: ERR1003 (403)",
          "no session: ERR1002 (401) for every procedure that is not public; public ones carry none of A's data",
          "afterwards A's key works, its webhook is enabled, its invitation pending, its three members in place, its generation there, its notification unread by anyone",
        ],
      });
      const all = Object.values(byCase);
      expect(all.flatMap((outcome) => outcome.leaks)).toEqual([]);
      expect(all.flatMap((outcome) => outcome.wrong)).toEqual([]);
      expect(malformed).toEqual([]);
      expect(intact).toBe(true);
    },
    sized(90_000, 300_000),
  );

  it(
    "the whole database and the app's log hold no raw API key, webhook secret or raw client address",
    async () => {
      // Request logs are written in batches, in order: once a later request's row is in, the drill's are too.
      await afterLaterRequestLogged(bKey);
      const { result, durationMs } = await timed(async () => ({ database: await scanDatabase(), log: scanAppLog() }));
      const known = secretsOfA.filter((secret) => /^(dkr_|whsec_)/.test(secret)).length;
      recordDrill("scan", {
        drill: "R5",
        title: "Isolation: no secret or raw address kept in plain text",
        size: drillSize(),
        durationMs,
        figures: {
          "database columns searched": result.database.columns,
          "database rows": result.database.rows,
          "database findings": result.database.findings.length,
          "app log lines searched": result.log.lines,
          "app log findings": result.log.findings.length,
          "keys and secrets issued to A (among those searched for)": known,
          "distinct client addresses sent": Math.min(clientIp, 250),
        },
        checked: [
          "no text, json, array or enum column of any table matches dkr_ + 40 base62 (a raw API key)",
          "none matches whsec_ + 43 base64url (a webhook secret in plain text; the secret column holds it sealed)",
          "none holds a client address of 100.72.0.0/16 or 2001:db8:dd::/48 sent in X-Forwarded-For (only their hash is kept)",
          "the app server's output (scripts/test.ts tees it into .data-test/app-server.log) matches none of the three",
        ],
      });
      expect(result.database.findings).toEqual([]);
      expect(result.log.findings).toEqual([]);
    },
    sized(60_000, 180_000),
  );
});
