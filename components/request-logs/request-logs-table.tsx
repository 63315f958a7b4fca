import { Badge, type BadgeTone, DateTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { LoggedKeyState } from "@/components/keys/key-state-badge";
import type { RequestLogEntry } from "@/components/keys/key-types";

// Request log rows: every field of the spec's entry. The client IP is only ever a SHA-256, shown
// shortened (the full hash in its tooltip); query values were sanitized before they were stored.

function statusTone(code: number): BadgeTone {
  if (code >= 500) return "red";
  if (code >= 400) return "amber";
  if (code >= 200 && code < 300) return "green";
  return "neutral";
}

function queryText(query: Record<string, string>): string {
  const entries = Object.entries(query);
  return entries.length === 0 ? "" : `?${entries.map(([name, value]) => `${name}=${value}`).join("&")}`;
}

export function RequestLogsTable({ entries, showKey = true }: { entries: RequestLogEntry[]; showKey?: boolean }) {
  return (
    <Table className="min-w-[980px] table-fixed">
      <THead>
        <TR>
          <TH className="w-[130px]">Time</TH>
          {showKey && <TH className="w-[150px]">Key</TH>}
          <TH>Request</TH>
          <TH className="w-[150px]">Status</TH>
          <TH className="w-[100px]">Key state</TH>
          <TH className="w-[190px]">Client</TH>
        </TR>
      </THead>
      <TBody>
        {entries.map((entry) => {
          const query = queryText(entry.query);
          return (
            <TR key={entry.request_log_id}>
              <TD className="text-xs whitespace-nowrap text-zinc-600 tabular-nums">
                <DateTime date={entry.created_at} style="log" title={`${entry.created_at}\nrequest ${entry.request_id}`} />
              </TD>
              {showKey && (
                <TD className="max-w-0">
                  <span className="block truncate text-zinc-900" title={entry.key_name}>
                    {entry.key_name}
                  </span>
                  <code className="font-mono text-xs text-zinc-500">{entry.key_prefix}</code>
                </TD>
              )}
              <TD className="max-w-0">
                <span className="flex min-w-0 items-center gap-2">
                  <code className="shrink-0 font-mono text-[11px] font-semibold text-zinc-500">{entry.method}</code>
                  <code className="truncate font-mono text-xs text-zinc-900" title={entry.endpoint}>
                    {entry.endpoint}
                  </code>
                </span>
                {query && (
                  <code className="mt-0.5 block truncate font-mono text-[11px] text-zinc-500" title={query}>
                    {query}
                  </code>
                )}
              </TD>
              <TD>
                <span className="flex flex-wrap items-center gap-1.5">
                  <Badge tone={statusTone(entry.status_code)} className="font-mono">
                    {entry.status_code}
                  </Badge>
                  {entry.error_code && <code className="font-mono text-xs text-red-700">{entry.error_code}</code>}
                  {entry.idempotent_replay && (
                    <Badge tone="blue" title="Answered from the idempotency cache (Idempotency-Replayed: true)">
                      Replay
                    </Badge>
                  )}
                </span>
              </TD>
              <TD>
                <LoggedKeyState state={entry.key_state} />
              </TD>
              <TD className="max-w-0">
                <code className="block font-mono text-xs text-zinc-700" title={`SHA-256 of the client IP: ${entry.client_ip_hash}`}>
                  {entry.client_ip_hash.slice(0, 12)}…
                </code>
                <span className="block truncate text-[11px] text-zinc-500" title={entry.user_agent ?? undefined}>
                  {entry.user_agent ?? "No user agent"}
                </span>
              </TD>
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}
