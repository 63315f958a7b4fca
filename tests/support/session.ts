import { expect } from "vitest";
import { listDevMailbox } from "@/server/email/dev-mailbox";
import { baseUrl } from "@/tests/support/http";

// Signs in to the dashboard the way a person does: ask for a magic link, read it from the dev
// mailbox (the outbox, whose bodies are sealed: the suites share the app's ENCRYPTION_KEY), open
// it. Returns the session cookie for later requests.

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0] ?? "");
}

export async function requestSignInLink(email: string, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return fetch(`${baseUrl()}/api/auth/signin/email`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookiesOf(csrf).join("; "),
      "x-auth-return-redirect": "1",
      ...extraHeaders,
    },
    body: new URLSearchParams({ email, csrfToken, callbackUrl: "/dashboard" }),
  });
}

/** The newest sign-in link e-mailed to this address. */
export async function latestSignInLink(email: string): Promise<string> {
  const [mail] = await listDevMailbox({ to: email, kind: "auth.sign_in", limit: 1 });
  const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no sign-in e-mail for ${email}`);
  return link;
}

export async function openLink(link: string): Promise<Response> {
  return fetch(link, { redirect: "manual" });
}

export async function signIn(email: string): Promise<{ cookie: string }> {
  const asked = await requestSignInLink(email);
  expect(asked.status).toBe(200);
  const opened = await openLink(await latestSignInLink(email));
  expect(opened.status).toBe(302);
  const cookie = cookiesOf(opened).find((c) => c.startsWith("authjs.session-token="));
  if (!cookie) throw new Error("no session cookie after opening the link");
  return { cookie };
}

/** Calls a tRPC procedure over HTTP (superjson wire format), as the dashboard does. */
export async function trpc(path: string, input: unknown, options: { cookie?: string; mutation?: boolean } = {}) {
  const wire = { json: input };
  const response = options.mutation
    ? await fetch(`${baseUrl()}/api/trpc/${path}`, {
        method: "POST",
        // A browser sends its page's Origin with every POST; the dashboard refuses mutations without ours.
        headers: { "content-type": "application/json", origin: baseUrl(), ...(options.cookie ? { cookie: options.cookie } : {}) },
        body: JSON.stringify(wire),
      })
    : await fetch(`${baseUrl()}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(wire))}`, {
        headers: options.cookie ? { cookie: options.cookie } : {},
      });
  const body = (await response.json()) as {
    result?: { data: { json: unknown } };
    error?: {
      json: { message: string; data: { httpStatus: number; apiError: { code: string; type: string; details: Record<string, unknown> } } };
    };
  };
  return { status: response.status, data: body.result?.data.json as any, error: body.error?.json };
}

/** Auth.js's own sign-out, as the dashboard's button does it: its CSRF token, then POST /api/auth/signout. */
export async function signOut(sessionCookie: string, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const csrf = await fetch(`${baseUrl()}/api/auth/csrf`, { headers: { cookie: sessionCookie } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return fetch(`${baseUrl()}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: [sessionCookie, ...cookiesOf(csrf)].join("; "),
      "x-auth-return-redirect": "1",
      ...extraHeaders,
    },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/login" }),
  });
}
