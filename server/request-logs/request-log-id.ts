// A request-log entry's id: its row's identity (created_at to the millisecond, and a 4-byte number
// unique within that millisecond) in the shape of a UUID, version 7 (48 bits of Unix milliseconds
// first), as SQL's request_log_entry_id() spells it. It sorts by time, and names its partition.

export type RequestLogRowId = { createdAt: Date; id: number };

const SHAPE = /^([0-9a-f]{8})-([0-9a-f]{4})-7000-8000-0000([0-9a-f]{8})$/;

export function requestLogId({ createdAt, id }: RequestLogRowId): string {
  const ms = createdAt.getTime().toString(16).padStart(12, "0");
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7000-8000-0000${(id >>> 0).toString(16).padStart(8, "0")}`;
}

/** The row an id names, or null when it is not one of ours. */
export function parseRequestLogId(value: string): RequestLogRowId | null {
  const match = SHAPE.exec(value);
  if (!match) return null;
  return { createdAt: new Date(parseInt(match[1]! + match[2]!, 16)), id: parseInt(match[3]!, 16) | 0 };
}
