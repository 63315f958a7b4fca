import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { AccountProvider } from "@/components/dashboard/account-context";
import { AccountSwitcher } from "@/components/dashboard/account-switcher";
import { LiveEvents } from "@/components/dashboard/live-events";
import { MobileNav } from "@/components/dashboard/mobile-nav";
import { NotificationBell } from "@/components/dashboard/notification-bell";
import { SidebarNav } from "@/components/dashboard/sidebar-nav";
import { ServicePausedBanner } from "@/components/dashboard/service-paused-banner";
import { UserMenu } from "@/components/dashboard/user-menu";
import { listMemberships } from "@/server/accounts/find-membership";
import { auth } from "@/server/auth";
import { db } from "@/server/base/db";
import { getServiceState } from "@/server/service/service-state";

export const dynamic = "force-dynamic";

export default async function AccountLayout({ children, params }: { children: React.ReactNode; params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) redirect(`/login?callbackUrl=${encodeURIComponent(`/dashboard/${accountId}`)}`);
  const accounts = await listMemberships(userId);
  const current = accounts.find((account) => account.accountId === accountId);
  if (!current) notFound();
  const service = await getServiceState(db, { fresh: true });

  return (
    <AccountProvider account={{ accountId, name: current.name, role: current.role }}>
      <LiveEvents accountId={accountId} />
      <div className="flex min-h-screen">
        <aside className="fixed inset-y-0 left-0 hidden w-60 flex-col border-r border-zinc-200 bg-zinc-50/80 px-3 py-4 md:flex">
          <Link href="/dashboard" className="mb-5 flex items-center gap-2 px-2 text-[15px] font-semibold tracking-tight text-zinc-900">
            <span className="inline-flex size-6 items-center justify-center rounded-md bg-zinc-900 text-[11px] font-bold text-white">
              D
            </span>
            Darkroom
          </Link>
          <AccountSwitcher accounts={accounts} current={accountId} />
          <div className="mt-5">
            <SidebarNav accountId={accountId} />
          </div>
          <div className="mt-auto px-2 text-xs text-zinc-400">
            <Link href="/v1/openapi.json" className="hover:text-zinc-600">
              API reference
            </Link>
          </div>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col md:pl-60">
          <header className="sticky top-0 z-20 flex h-14 items-center justify-between gap-4 border-b border-zinc-200 bg-white/80 px-4 backdrop-blur sm:px-6">
            <MobileNav accounts={accounts} accountId={accountId} />
            <div className="ml-auto flex items-center gap-2">
              <NotificationBell accountId={accountId} />
              <UserMenu email={session.user?.email ?? ""} accountId={accountId} />
            </div>
          </header>
          {service.paused ? <ServicePausedBanner reason={service.reason} /> : null}
          <main className="mx-auto w-full max-w-6xl flex-1 px-6 py-8">{children}</main>
        </div>
      </div>
    </AccountProvider>
  );
}
