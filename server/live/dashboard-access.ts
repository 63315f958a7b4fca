import "server-only";
import { sqlPool } from "../base/db";
import type { MemberRole } from "../base/generated/prisma/enums";

// Whether a dashboard stream may go on (issue #43): its session is live and of the user's current
// session version (not signed out, not "signed out everywhere", not expired), the user is still a
// member of the account in a role that reads the live feed, and the account is not deleted. One
// query for every dashboard stream of the process, on the hub's tick.

/** The signed-in session a dashboard stream was opened with. */
export type DashboardSession = { userId: string; sessionId: string; sessionVersion: number };

/** Every role sees the account's generations (the spec's role table gives each "View"). */
const LIVE_FEED_ROLES: ReadonlySet<MemberRole> = new Set<MemberRole>(["primary_owner", "owner", "member"]);

export function readsLiveFeed(role: MemberRole): boolean {
  return LIVE_FEED_ROLES.has(role);
}

export type DashboardHolding = { accountId: string; session: DashboardSession };

type AccessRow = {
  user_id: string;
  session_id: string;
  account_id: string;
  session_version: number | null;
  session_live: boolean;
  role: string | null;
  account_deleted: boolean;
};

/** The database's enum labels (schema.prisma @map) → MemberRole. */
const roleOfLabel: Record<string, MemberRole> = { "primary-owner": "primary_owner", owner: "owner", member: "member" };

const holdingKey = (userId: string, sessionId: string, accountId: string) => `${userId}|${sessionId}|${accountId}`;

/** The holdings that must end now; a holding is judged once however many streams share it. */
export async function refusedDashboardHoldings<T extends DashboardHolding>(holdings: T[]): Promise<Set<T>> {
  const distinct = new Map<string, T>();
  for (const holding of holdings) distinct.set(holdingKey(holding.session.userId, holding.session.sessionId, holding.accountId), holding);
  const list = [...distinct.values()];
  const { rows } = await sqlPool().query<AccessRow>({
    name: "live-dashboard-access",
    text: `SELECT h.user_id::text, h.session_id::text, h.account_id::text, u.session_version, coalesce(s.expires_at > now(), false) AS session_live,
                  m.role::text AS role, (a.id IS NULL OR a.deleted_at IS NOT NULL) AS account_deleted
             FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS h(user_id, session_id, account_id)
             LEFT JOIN "user" u ON u.id = h.user_id
             LEFT JOIN auth_session s ON s.id = h.session_id AND s.user_id = h.user_id
             LEFT JOIN membership m ON m.account_id = h.account_id AND m.user_id = h.user_id
             LEFT JOIN account a ON a.id = h.account_id`,
    values: [
      list.map((holding) => holding.session.userId),
      list.map((holding) => holding.session.sessionId),
      list.map((holding) => holding.accountId),
    ],
  });
  const allowed = new Set<string>();
  for (const row of rows) {
    const role = row.role === null ? undefined : roleOfLabel[row.role];
    if (!row.session_live || row.account_deleted || role === undefined || !readsLiveFeed(role)) continue;
    const holding = distinct.get(holdingKey(row.user_id, row.session_id, row.account_id));
    if (holding && row.session_version === holding.session.sessionVersion)
      allowed.add(holdingKey(row.user_id, row.session_id, row.account_id));
  }
  return new Set(
    holdings.filter((holding) => !allowed.has(holdingKey(holding.session.userId, holding.session.sessionId, holding.accountId))),
  );
}
