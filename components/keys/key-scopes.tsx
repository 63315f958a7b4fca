import { Badge } from "@/components/ui";
import { scopePresetLabels, type ScopePreset } from "@/server/keys/scopes";

// A key's scopes: the preset's name when the set is exactly a preset's, else each scope.

export function KeyScopes({ preset, scopes }: { preset: string | null; scopes: string[] }) {
  if (preset && preset in scopePresetLabels) {
    return (
      <Badge tone="blue" title={scopes.join(", ")}>
        {scopePresetLabels[preset as ScopePreset]}
      </Badge>
    );
  }
  return (
    <span className="flex flex-wrap gap-1">
      {scopes.map((scope) => (
        <code key={scope} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] whitespace-nowrap text-zinc-700">
          {scope}
        </code>
      ))}
    </span>
  );
}
