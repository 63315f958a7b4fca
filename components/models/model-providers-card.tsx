import { Card, CardHeader, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { formatSeconds } from "./model-format";
import type { ModelProviderHealth } from "./model-types";
import { providerHealthLook, ProviderHealthDot } from "./provider-health";
import { StackedItem, StackedList } from "./stacked-list";

// Who serves the model, in failover order, each with its health and this model's own recent
// attempts on it (the health window of GET /v1/health/inference/models).

export function ModelProvidersCard({ providers }: { providers: ModelProviderHealth[] }) {
  return (
    <Card aria-labelledby="providers-title">
      <CardHeader
        title={<span id="providers-title">Providers</span>}
        description="In failover order. Attempts, success rate and p50 latency are this model's, over the last 15 minutes."
      />
      <StackedList>
        {providers.map((provider) => (
          <StackedItem
            key={provider.provider}
            title={<span className="font-medium text-zinc-900">{provider.provider_name}</span>}
            aside={<HealthLabel provider={provider} />}
          >
            <p className="text-xs text-zinc-500">{provider.status_reason}</p>
            <p className="text-xs text-zinc-600 tabular-nums">
              {provider.attempts} attempts · success {successRate(provider)} · p50 {latency(provider)}
            </p>
          </StackedItem>
        ))}
      </StackedList>
      <Table className="hidden sm:table">
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
          {providers.map((provider) => (
            <TR key={provider.provider} data-provider={provider.provider}>
              <TD className="whitespace-nowrap">
                <span className="font-medium text-zinc-900">{provider.provider_name}</span>
                <span className="ml-2 font-mono text-xs text-zinc-400">{provider.provider}</span>
              </TD>
              <TD className="min-w-56">
                <HealthLabel provider={provider} />
                <p className="text-xs text-zinc-500">{provider.status_reason}</p>
              </TD>
              <TD className="text-right tabular-nums">{provider.attempts}</TD>
              <TD className="text-right tabular-nums">{successRate(provider)}</TD>
              <TD className="text-right tabular-nums">{latency(provider)}</TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </Card>
  );
}

function HealthLabel({ provider }: { provider: ModelProviderHealth }) {
  return (
    <span className="inline-flex items-center gap-1.5 font-medium text-zinc-800">
      <ProviderHealthDot provider={provider} />
      {providerHealthLook(provider).label}
    </span>
  );
}

const successRate = (provider: ModelProviderHealth) =>
  provider.success_rate === null ? "—" : `${Math.round(provider.success_rate * 1000) / 10}%`;
const latency = (provider: ModelProviderHealth) => (provider.p50_latency_ms === null ? "—" : formatSeconds(provider.p50_latency_ms / 1000));
