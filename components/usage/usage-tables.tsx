import { formatCredits } from "@/components/dashboard/format-credits";
import { Badge, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import type { UsageEndpoint, UsageProvider } from "@/server/usage/get-usage";

// GET /v1/usage's per-endpoint and per-provider rows, as tables.

const count = (value: number) => value.toLocaleString("en");

export function EndpointsTable({ endpoints }: { endpoints: UsageEndpoint[] }) {
  return (
    <Table aria-label="Requests per endpoint" className="min-w-[640px]">
      <THead>
        <TR>
          <TH>Endpoint</TH>
          <TH className="text-right">Requests</TH>
          <TH className="text-right">2xx</TH>
          <TH className="text-right">4xx</TH>
          <TH className="text-right">5xx</TH>
          <TH>Error codes</TH>
        </TR>
      </THead>
      <TBody>
        {endpoints.map((row) => (
          <TR key={row.endpoint}>
            <TD className="font-mono text-xs text-zinc-900">{row.endpoint}</TD>
            <TD className="text-right tabular-nums">{count(row.total_requests)}</TD>
            <TD className="text-right tabular-nums">{count(row.success_count)}</TD>
            <TD className="text-right tabular-nums">{count(row.client_error_count)}</TD>
            <TD className="text-right tabular-nums">{count(row.server_error_count)}</TD>
            <TD>
              <div className="flex flex-wrap gap-1">
                {Object.entries(row.error_codes).map(([code, times]) => (
                  <Badge key={code} tone={code.startsWith("ERR5") ? "red" : "amber"} className="font-mono">
                    {code} × {times}
                  </Badge>
                ))}
                {Object.keys(row.error_codes).length === 0 && <span className="text-xs text-zinc-400">—</span>}
              </div>
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

export function ProvidersTable({ providers }: { providers: UsageProvider[] }) {
  return (
    <Table aria-label="Submissions per provider" className="min-w-[720px]">
      <THead>
        <TR>
          <TH>Provider</TH>
          <TH className="text-right">Submissions</TH>
          <TH className="text-right">Used</TH>
          <TH className="text-right">Canceled</TH>
          <TH className="text-right">Discarded</TH>
          <TH className="text-right">Failed</TH>
          <TH className="text-right">Cost</TH>
          <TH className="text-right">Wasted</TH>
        </TR>
      </THead>
      <TBody>
        {providers.map((row) => (
          <TR key={row.provider}>
            <TD className="font-mono text-xs text-zinc-900">{row.provider}</TD>
            <TD className="text-right tabular-nums">{count(row.total_submissions)}</TD>
            <TD className="text-right tabular-nums">{count(row.used_count)}</TD>
            <TD className="text-right tabular-nums">{count(row.cancelled_count)}</TD>
            <TD className="text-right tabular-nums">{count(row.discarded_count)}</TD>
            <TD className="text-right tabular-nums">{count(row.failed_count)}</TD>
            <TD className="text-right tabular-nums">{formatCredits(row.total_estimated_cost)}</TD>
            <TD className="text-right tabular-nums">{formatCredits(row.wasted_estimated_cost)}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
