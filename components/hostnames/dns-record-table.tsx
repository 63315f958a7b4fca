import { CopyButton } from "@/components/ui";

// The one record the customer creates at their DNS provider, each value with a copy button.

function Row({ label, value, copyLabel }: { label: string; value: string; copyLabel?: string }) {
  return (
    <div className="grid grid-cols-[5rem_1fr] items-center gap-2 px-4 py-2 sm:grid-cols-[7rem_1fr]">
      <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">{label}</dt>
      <dd className="flex min-w-0 items-center justify-between gap-2">
        <code className="min-w-0 font-mono text-[13px] break-all text-zinc-900">{value}</code>
        {copyLabel ? <CopyButton value={value} label={copyLabel} /> : null}
      </dd>
    </div>
  );
}

export function DnsRecordTable({ name, target }: { name: string; target: string }) {
  return (
    <dl className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-zinc-50/50" aria-label="DNS record to create">
      <Row label="Type" value="CNAME" />
      <Row label="Name" value={name} copyLabel="Copy name" />
      <Row label="Target" value={target} copyLabel="Copy target" />
    </dl>
  );
}
