import { invalidRequest } from "../error-table";

// A page cursor for lists ordered newest first by (createdAt, id): the position of the last row
// shown, opaque to clients. Ordering by the pair means a page never repeats or skips a row, even
// when rows share a timestamp or new ones arrive between pages.

export type ListPosition = { createdAt: Date; id: string };

export function encodePositionCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id]), "utf8").toString("base64url");
}

export function decodePositionCursor(cursor: string): ListPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && typeof parsed[1] === "string") {
      const createdAt = new Date(parsed[0]);
      if (!Number.isNaN(createdAt.getTime()) && /^[0-9a-f-]{36}$/i.test(parsed[1])) return { createdAt, id: parsed[1] };
    }
  } catch {
    // falls through to the error below
  }
  throw invalidRequest("The cursor is not one this list gave out.", [{ field: "cursor", message: "is not a valid cursor" }]);
}

/**
 * The Prisma `where` fragment of the rows after a position, newest first. `createdAt <= t` is what
 * PostgreSQL can start an index range scan on (account_id, created_at[, id]) from; the OR only drops
 * the position's own timestamp twins. Written as `t < x OR (t = x AND id < y)` alone, it filters
 * every newer row on the way, so page N would cost N pages.
 */
export function afterPosition(position: ListPosition | null) {
  return position
    ? { createdAt: { lte: position.createdAt }, OR: [{ createdAt: { lt: position.createdAt } }, { id: { lt: position.id } }] }
    : {};
}

/** A page of `limit` rows out of the `limit + 1` read: the rows, and the cursor after the last one when more follow. */
export function cursorPage<Row extends ListPosition>(rows: Row[], limit: number): { page: Row[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next_cursor: rows.length > limit && last ? encodePositionCursor(last) : null };
}
