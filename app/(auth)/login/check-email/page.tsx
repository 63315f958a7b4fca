import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { devMailboxEnabled } from "@/server/email/dev-mailbox";

export const metadata = { title: "Check your e-mail" };
export const dynamic = "force-dynamic";

export default async function CheckEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const { email } = await searchParams;
  return (
    <AuthCard
      title="Check your e-mail"
      description={
        <>
          We sent a sign-in link to {email ? <strong className="font-medium text-zinc-800">{email}</strong> : "your address"}. It works once
          and expires in 15 minutes.
        </>
      }
    >
      <div className="flex flex-col gap-3 text-sm">
        {devMailboxEnabled() ? (
          <Link
            href={email ? `/dev/mailbox?to=${encodeURIComponent(email)}` : "/dev/mailbox"}
            className="flex w-full items-center justify-center rounded-md bg-zinc-900 px-4 py-2 font-medium text-white hover:bg-zinc-700"
          >
            Open the dev mailbox
          </Link>
        ) : null}
        <Link href="/login" className="text-center text-zinc-500 hover:text-zinc-900">
          Use another address
        </Link>
      </div>
    </AuthCard>
  );
}
