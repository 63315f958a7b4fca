import Link from "next/link";
import { Card, CardHeader, cn, DateTime, RelativeTime } from "@/components/ui";
import { KeyScopes } from "./key-scopes";
import type { ApiKeyRecord } from "./key-types";

// A key's metadata. Its value is never shown again after creation or rotation.

export function KeyDetailsCard({ accountId, apiKey }: { accountId: string; apiKey: ApiKeyRecord }) {
  return (
    <Card>
      <CardHeader title="Details" />
      <dl className="grid gap-x-6 gap-y-4 px-5 py-4 sm:grid-cols-2 lg:grid-cols-4">
        <Row label="Prefix">
          <code className="font-mono text-xs text-zinc-800">{apiKey.apikey_prefix}…</code>
        </Row>
        <Row label="Scopes" className="sm:col-span-2">
          <KeyScopes preset={apiKey.preset} scopes={apiKey.scopes} />
          {apiKey.preset && <p className="mt-1.5 font-mono text-[11px] leading-5 text-zinc-500">{apiKey.scopes.join(", ")}</p>}
        </Row>
        <Row label="Region">
          <code className="font-mono text-xs uppercase">{apiKey.region}</code>
        </Row>
        <Row label="IP allowlist">
          {apiKey.ip_allowlist ? (
            <ul className="space-y-0.5 font-mono text-xs text-zinc-800">
              {apiKey.ip_allowlist.map((entry) => (
                <li key={entry}>{entry}</li>
              ))}
            </ul>
          ) : (
            <span className="text-zinc-500">Every client address</span>
          )}
        </Row>
        <Row label="Created">
          <Moment date={apiKey.apikey_created_at} />
        </Row>
        <Row label="Last used">
          {apiKey.apikey_last_used_at ? <Moment date={apiKey.apikey_last_used_at} /> : <span className="text-zinc-400">Never</span>}
        </Row>
        <Row label="Expires">
          {apiKey.apikey_expires_at ? <Moment date={apiKey.apikey_expires_at} /> : <span className="text-zinc-400">Never</span>}
        </Row>
        {apiKey.rotated_at && (
          <Row label="Rotated">
            <Moment date={apiKey.rotated_at} />
            {apiKey.grace_ends_at && (
              <p className="text-xs text-zinc-500">
                Grace {apiKey.accepts_requests ? "ends" : "ended"} <DateTime date={apiKey.grace_ends_at} />
              </p>
            )}
            {apiKey.replaced_by_id && (
              <Link
                href={`/dashboard/${accountId}/keys/${apiKey.replaced_by_id}`}
                className="text-xs font-medium text-zinc-900 underline underline-offset-2"
              >
                Open the replacement key
              </Link>
            )}
          </Row>
        )}
        {apiKey.revoked_at && (
          <Row label="Revoked">
            <Moment date={apiKey.revoked_at} />
          </Row>
        )}
        <Row label="Key ID">
          <code className="font-mono text-xs break-all text-zinc-700">{apiKey.apikey_id}</code>
        </Row>
      </dl>
    </Card>
  );
}

function Moment({ date }: { date: string }) {
  return (
    <>
      <DateTime date={date} className="block" />
      <RelativeTime date={date} className="block text-xs text-zinc-500" />
    </>
  );
}

function Row({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={cn("min-w-0 space-y-1", className)}>
      <dt className="text-xs font-medium text-zinc-500">{label}</dt>
      <dd className="min-w-0 text-zinc-900">{children}</dd>
    </div>
  );
}
