import { cn, type BadgeTone } from "@/components/ui";
import type { ModelProviderHealth } from "./model-types";

// A provider's health for one model, as a dot and a word: the provider's status over all its
// models (GET /v1/health/inference/providers) and whether this model can be routed to it now.

const dotClass: Record<BadgeTone, string> = {
  green: "bg-green-500",
  amber: "bg-amber-500",
  red: "bg-red-500",
  neutral: "bg-zinc-300",
  blue: "bg-blue-500",
};

export function providerHealthLook(provider: Pick<ModelProviderHealth, "status" | "status_reason" | "available">): {
  tone: BadgeTone;
  label: string;
} {
  switch (provider.status) {
    case "healthy":
      return { tone: "green", label: "Healthy" };
    case "recovering":
      return { tone: "amber", label: "Recovering" };
    case "degraded":
      return provider.available ? { tone: "amber", label: "Degraded" } : { tone: "red", label: "Down" };
    default:
      return { tone: "neutral", label: provider.status_reason.startsWith("disabled") ? "Turned off" : "Not configured" };
  }
}

export function ProviderHealthDot({ provider, className }: { provider: ModelProviderHealth; className?: string }) {
  const { tone, label } = providerHealthLook(provider);
  return (
    <span
      aria-hidden
      title={`${label}: ${provider.status_reason}`}
      data-health={tone}
      className={cn("inline-block size-2 shrink-0 rounded-full", dotClass[tone], className)}
    />
  );
}

/** The dot and the provider's name, with the health spelled out for screen readers. */
export function ProviderWithHealth({ provider }: { provider: ModelProviderHealth }) {
  const { label } = providerHealthLook(provider);
  return (
    <span className="inline-flex items-center gap-1.5" title={`${label}: ${provider.status_reason}`}>
      <ProviderHealthDot provider={provider} />
      <span>{provider.provider_name}</span>
      <span className="sr-only">({label})</span>
    </span>
  );
}
