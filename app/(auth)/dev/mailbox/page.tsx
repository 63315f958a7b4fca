import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { devMailboxOpenTo, listDevMailbox } from "@/server/email/dev-mailbox";

export const metadata = { title: "Dev mailbox" };
export const dynamic = "force-dynamic";

// Local development only (server/email/dev-mailbox.ts): the e-mails this instance would have sent.

const linkPattern = /https?:\/\/\S+/g;

function TextWithLinks({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(linkPattern)) {
    parts.push(text.slice(last, match.index));
    const isSignIn = match[0].includes("/api/auth/callback/");
    parts.push(
      <a key={match.index} href={match[0]} className="break-all font-medium text-blue-700 underline underline-offset-2">
        {isSignIn ? "Sign in to Darkroom" : match[0]}
      </a>,
    );
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <p className="whitespace-pre-wrap text-sm leading-6 text-zinc-700">{parts}</p>;
}

export default async function DevMailboxPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  if (!devMailboxOpenTo(new Request("http://dev-mailbox.local", { headers: await headers() }))) notFound();
  const { to } = await searchParams;
  const messages = await listDevMailbox({ to });
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <div className="flex items-baseline justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Dev mailbox</h1>
          <p className="mt-1 text-sm text-zinc-500">
            E-mail is not configured (no RESEND_API_KEY), so messages stay here.{to ? ` Showing mail to ${to}.` : ""}
          </p>
        </div>
        {to ? (
          <Link href="/dev/mailbox" className="text-sm text-zinc-500 hover:text-zinc-900">
            Show all
          </Link>
        ) : null}
      </div>
      {messages.length === 0 ? (
        <div className="mt-10 rounded-xl border border-dashed border-zinc-300 bg-white p-10 text-center text-sm text-zinc-500">
          No e-mail yet. Ask for a sign-in link and it appears here.
        </div>
      ) : (
        <ul className="mt-8 space-y-4">
          {messages.map((message) => (
            <li key={message.id} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm" data-testid="dev-mail">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="font-medium text-zinc-900">{message.subject}</h2>
                <time dateTime={message.createdAt.toISOString()} className="text-xs text-zinc-500">
                  {message.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC
                </time>
              </div>
              <p className="mt-0.5 text-xs text-zinc-500">
                To {message.to} · {message.kind}
              </p>
              <div className="mt-3 border-t border-zinc-100 pt-3">
                <TextWithLinks text={message.text} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
