import type { CustomHostname } from "../base/generated/prisma/client";
import { verificationDeadline } from "./verification-schedule";

// A custom hostname as the dashboard and the CLI show it, with the DNS record to create.

export type CustomHostnameRecord = {
  hostname: string;
  status: CustomHostname["status"];
  target: string;
  dns_record: { type: "CNAME"; name: string; value: string };
  attempts: number;
  check_started_at: string;
  /** While pending: when it becomes `failed` if the CNAME still does not point at the target. */
  fails_at: string | null;
  last_checked_at: string | null;
  last_error: string | null;
  verified_at: string | null;
  created_at: string;
};

export function toCustomHostnameRecord(row: CustomHostname): CustomHostnameRecord {
  return {
    hostname: row.hostname,
    status: row.status,
    target: row.target,
    dns_record: { type: "CNAME", name: row.hostname, value: row.target },
    attempts: row.attempts,
    check_started_at: row.checkStartedAt.toISOString(),
    fails_at: row.status === "pending" ? verificationDeadline(row.checkStartedAt).toISOString() : null,
    last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
    last_error: row.lastError,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
