import { Badge } from "@/components/ui";

// `model_status`: active, or why this deployment does not serve the model.

const looks = {
  active: { tone: "green", label: "Active" },
  not_configured: { tone: "neutral", label: "Not configured" },
  disabled: { tone: "neutral", label: "Disabled" },
} as const;

export function ModelStatusBadge({ status }: { status: keyof typeof looks }) {
  const look = looks[status];
  return (
    <Badge tone={look.tone} dot data-model-status={status}>
      {look.label}
    </Badge>
  );
}

/** One sentence for a model this deployment does not serve. */
export const statusExplanation: Record<keyof typeof looks, string | null> = {
  active: null,
  not_configured: "Not configured on this deployment: none of its providers has credentials, so creates are answered with an error.",
  disabled:
    "Turned off on this deployment by its operator (the model or every configured provider of it): creates and estimates are refused with ERR1012.",
};
