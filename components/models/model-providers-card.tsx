import { Card, CardHeader, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { formatSeconds } from "./model-format";
import type { ModelProviderHealth } from "./model-types";
import { providerHealthLook, ProviderHealthDot } from "./provider-health";

// Who serves the model, in failover order, each with its health and this model's own recent
// attempts on it (the health window of GET /v1/health/inference/models).

export function ModelProvidersCard({ providers }: { providers: ModelProviderHealth[] }) {
  return (
    <Card aria-labelledby="providers-title">
      <CardHeader title={<span id="providers-title">Providers</span>} description="In failover order. Attempts, success rate and p50 latency are this model's, over the last 15 minutes." />
      <Table>
        <THead>
          <TR>
            <TH>Provider</TH>
            <TH>Health</TH>
            <TH className="text-right">Attempts</TH>
            <TH className="text-right">Success rate</TH>
            <TH className="text-right">p50 latency</TH>
          </TR>
        </THead>
        <TBody>
          {providers.map((provider) => {
            const look = providerHealthLook(provider);
            return (
              <TR key={provider.provider} data-provider={provider.provider}>
                <TD className="whitespace-nowrap">
                  <span className="font-medium text-zinc-900">{provider.provider_name}</span>
                  <span className="ml-2 font-mono text-xs text-zinc-400">{provider.provider}</span>
                </TD>
                <TD className="min-w-56">
                  <span className="inline-flex items-center gap-1.5 font-medium text-zinc-800">
                    <ProviderHealthDot provider={provider} />
                    {look.label}
                  </span>
                  <p className="text-xs text-zinc-500">{provider.status_reason}</p>
                </TD>
                <TD className="text-right tabular-nums">{provider.attempts}</TD>
                <TD className="text-right tabular-nums">{provider.success_rate === null ? "—" : `${Math.round(provider.success_rate * 1000) / 10}%`}</TD>
                <TD className="text-right tabular-nums">{provider.p50_latency_ms === null ? "—" : formatSeconds(provider.p50_latency_ms / 1000)}</TD>
              </TR>
            );
          })}
        </TBody>
      </Table>
    </Card>
  );
}
