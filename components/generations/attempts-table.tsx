import { formatCredits } from "@/components/dashboard/format-credits";
import { Badge, Card, CardHeader, EmptyState, Table, TBody, TD, TH, THead, TR, type BadgeTone } from "@/components/ui";
import { Server } from "lucide-react";
import type { ProviderAttemptRow } from "./generation-types";

// Every provider attempt of a generation, in order: how it ended, how long it took, what it cost
// and whether that cost was wasted (billed by the provider, thrown away by us).

const tones: Record<string, BadgeTone> = { running: "blue", succeeded: "green", failed: "red", canceled: "amber", discarded: "neutral" };

const latency = (ms: number | null) => (ms === null ? "—" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`);

export function AttemptsTable({ attempts }: { attempts: ProviderAttemptRow[] }) {
  return (
    <Card role="region" aria-label="Provider attempts">
      <CardHeader
        title="Provider attempts"
        description="Each provider tried, in order. A failing provider is skipped and the next one in the chain is tried."
      />
      {attempts.length === 0 ? (
        <EmptyState icon={Server} className="py-8" title="No provider has been tried yet" />
      ) : (
        <Table className="min-w-[600px]">
          <THead>
            <TR>
              <TH className="w-10">#</TH>
              <TH>Provider</TH>
              <TH>Outcome</TH>
              <TH className="text-right">Latency</TH>
              <TH className="text-right">Cost</TH>
              <TH>Wasted</TH>
            </TR>
          </THead>
          <TBody>
            {attempts.map((attempt) => (
              <TR key={attempt.attempt_number}>
                <TD className="tabular-nums text-zinc-500">{attempt.attempt_number}</TD>
                <TD>
                  <span className="font-mono text-xs">{attempt.provider}</span>
                  {attempt.error_message && (
                    <p className="mt-0.5 max-w-xs truncate text-xs text-red-600" title={attempt.error_message}>
                      {attempt.error_code ? `${attempt.error_code}: ` : ""}
                      {attempt.error_message}
                    </p>
                  )}
                </TD>
                <TD>
                  <Badge tone={tones[attempt.outcome] ?? "neutral"} dot>
                    {attempt.outcome}
                  </Badge>
                </TD>
                <TD className="text-right tabular-nums">{latency(attempt.latency_ms)}</TD>
                <TD className="text-right tabular-nums">{formatCredits(attempt.estimated_cost)}</TD>
                <TD>{attempt.wasted ? <Badge tone="amber">Wasted</Badge> : <span className="text-xs text-zinc-400">No</span>}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </Card>
  );
}
