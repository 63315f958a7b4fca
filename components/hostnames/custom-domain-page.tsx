"use client";

import { useQuery } from "@tanstack/react-query";
import { Globe, Lock } from "lucide-react";
import Link from "next/link";
import { useAccount } from "@/components/dashboard/account-context";
import { useTRPC } from "@/components/trpc/react";
import { Badge, buttonClassName, Card, CardBody, CardHeader, PageHeader, RelativeTime, Skeleton } from "@/components/ui";
import { AddHostnameForm } from "./add-hostname-form";
import { DnsRecordTable } from "./dns-record-table";
import { HostnameActions } from "./hostname-actions";
import { HostnameStatusBadge } from "./hostname-status-badge";
import type { CustomHostnameRecord, HostnamesView } from "./hostname-types";

// The account's custom API hostname (Enterprise): the CNAME to create, where verification stands,
// and the owners' actions. Members read it; other plans see what the feature is and where to get it.
// While a check or a removal is under way the page refreshes itself.

const steps = [
  { title: "Add the hostname", body: "A name under your own domain, such as api.yourcompany.com. One per account." },
  {
    title: "Create the CNAME record",
    body: "At your DNS provider, pointing the hostname at the target shown. Remove any A or AAAA records on it.",
  },
  {
    title: "Wait for verification",
    body: "It is checked at once, then after 1, 5, 15 and 30 minutes and every hour or two, for up to 24 hours.",
  },
  { title: "Call the API on it", body: "https://<hostname>/v1/… serves this account's region and accepts only this account's keys." },
];

function OwnerOnly() {
  return (
    <p className="inline-flex items-center gap-1.5 rounded-md bg-zinc-100 px-2.5 py-1 text-xs font-medium text-zinc-600">
      <Lock className="size-3.5 text-zinc-400" aria-hidden />
      Only owners can change the custom hostname
    </p>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="space-y-0.5">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="text-sm text-zinc-900">{children}</dd>
    </div>
  );
}

function statusLine(hostname: CustomHostnameRecord): string {
  switch (hostname.status) {
    case "pending":
      return "Waiting for the CNAME record to point at the target.";
    case "active":
      return "Verified: the API answers on this hostname for this account.";
    case "failed":
      return "The CNAME record was not found pointing at the target within 24 hours. Fix the record, then check again.";
    case "removing":
      return "Being taken down; it no longer serves this account.";
  }
}

function HostnameCard({ view, accountId, canManage }: { view: HostnamesView; accountId: string; canManage: boolean }) {
  const hostname = view.hostname as CustomHostnameRecord;
  return (
    <Card>
      <CardHeader
        title={<span className="font-mono text-[15px] break-all">{hostname.hostname}</span>}
        description={statusLine(hostname)}
        actions={<HostnameStatusBadge status={hostname.status} />}
      />
      <CardBody className="space-y-5">
        <div className="space-y-2">
          <h3 className="text-sm font-medium text-zinc-900">DNS record</h3>
          <DnsRecordTable name={hostname.dns_record.name} target={hostname.dns_record.value} />
        </div>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Fact label="Last check">{hostname.last_checked_at ? <RelativeTime date={hostname.last_checked_at} /> : "Not yet"}</Fact>
          <Fact label="Checks">{hostname.attempts}</Fact>
          {hostname.status === "active" && hostname.verified_at ? (
            <Fact label="Verified">
              <RelativeTime date={hostname.verified_at} />
            </Fact>
          ) : null}
          {hostname.fails_at ? (
            <Fact label="Gives up">
              <RelativeTime date={hostname.fails_at} />
            </Fact>
          ) : null}
          <Fact label="Added">
            <RelativeTime date={hostname.created_at} />
          </Fact>
        </dl>
        {hostname.last_error && hostname.status !== "active" ? (
          <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="hostname-last-error">
            {hostname.last_error}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-100 pt-4">
          {canManage ? <HostnameActions accountId={accountId} hostname={hostname} /> : <OwnerOnly />}
        </div>
      </CardBody>
    </Card>
  );
}

function NotEnterprise({ plan, accountId }: { plan: string; accountId: string }) {
  return (
    <Card>
      <CardBody className="flex flex-col items-start gap-3">
        <div className="flex items-center gap-2">
          <Globe className="size-5 text-zinc-400" aria-hidden />
          <h2 className="text-sm font-semibold text-zinc-900">Custom hostnames are part of the Enterprise plan</h2>
        </div>
        <p className="text-sm text-zinc-600">
          This account is on the <Badge tone="neutral">{plan.charAt(0).toUpperCase() + plan.slice(1)}</Badge> plan. On Enterprise you can
          serve the API on a hostname of your own, such as api.yourcompany.com, set up with one CNAME record.
        </p>
        <Link href={`/dashboard/${accountId}/billing`} className={buttonClassName("secondary", "sm")}>
          See plans
        </Link>
      </CardBody>
    </Card>
  );
}

export function CustomDomainPage() {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const view = useQuery({
    ...trpc.hostnames.get.queryOptions({ accountId }),
    refetchInterval: (query) =>
      query.state.data?.hostname && ["pending", "removing"].includes(query.state.data.hostname.status) ? 5000 : false,
  });

  return (
    <div className="space-y-8">
      <PageHeader title="Custom domain" description="Serve the API on a hostname of your own instead of the regional address." />
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          {view.isPending ? (
            <Card>
              <CardBody className="space-y-3">
                <Skeleton className="h-5 w-64" />
                <Skeleton className="h-24 w-full" />
              </CardBody>
            </Card>
          ) : view.isError ? (
            <p className="text-sm text-red-600">The custom domain could not be loaded.</p>
          ) : view.data.hostname ? (
            <HostnameCard view={view.data} accountId={accountId} canManage={view.data.canManage} />
          ) : !view.data.enterprise ? (
            <NotEnterprise plan={view.data.plan} accountId={accountId} />
          ) : (
            <Card>
              <CardHeader title="Add a custom hostname" description={`Then create a CNAME record pointing it at ${view.data.target}.`} />
              <CardBody>{view.data.canManage ? <AddHostnameForm accountId={accountId} /> : <OwnerOnly />}</CardBody>
            </Card>
          )}
        </div>
        <Card>
          <CardHeader title="How it works" />
          <ol className="divide-y divide-zinc-100">
            {steps.map((step, index) => (
              <li key={step.title} className="flex gap-3 px-5 py-3.5">
                <span className="flex size-5 shrink-0 items-center justify-center rounded-full bg-zinc-100 text-xs font-medium text-zinc-600">
                  {index + 1}
                </span>
                <div>
                  <p className="text-sm font-medium text-zinc-900">{step.title}</p>
                  <p className="text-sm text-zinc-500">{step.body}</p>
                </div>
              </li>
            ))}
          </ol>
        </Card>
      </div>
    </div>
  );
}
