import { LegalPage } from "@/components/legal/legal-page";
import { TERMS_EFFECTIVE_DATE, TERMS_VERSION } from "@/server/consent/legal-versions";

export const metadata = { title: "Terms of Service" };

export default function TermsPage() {
  return (
    <LegalPage title="Terms of Service" version={TERMS_VERSION} effective={TERMS_EFFECTIVE_DATE}>
      <p>
        These terms cover your use of this Darkroom service (the API at <code>/v1</code> and the dashboard), run by the operator of this
        deployment (&quot;we&quot;). By signing in you agree to them and to the Privacy Policy. They are short on purpose; if something is
        unclear, ask us before you rely on it.
      </p>
      <h2>Your account</h2>
      <ul>
        <li>
          You sign in with a link sent to your e-mail address. Keep that mailbox and your API keys to yourself: whoever holds a key acts as
          your account within its scopes.
        </li>
        <li>
          The owners of an account decide who is in it and what members may do. You are responsible for what your account&apos;s keys and
          members do.
        </li>
      </ul>
      <h2>Credits and payments</h2>
      <ul>
        <li>
          Generations cost credits at the price the model lists before you start them; a failed or canceled generation is refunded as the
          documentation describes.
        </li>
        <li>
          Plans and credit packs are paid through Stripe. Credits added to your account stay there when a payment is later refunded or
          disputed, and are not paid out in cash.
        </li>
      </ul>
      <h2>What you generate</h2>
      <ul>
        <li>
          Do not use the service for anything unlawful, to harm people, or to make content that the inference providers forbid; providers
          may refuse a request, and we may suspend an account that abuses the service.
        </li>
        <li>
          You keep whatever rights you have in your prompts and outputs. Output files are kept only as long as your plan says, then deleted.
        </li>
      </ul>
      <h2>Availability</h2>
      <p>
        We work to keep the service running but do not promise it never fails: providers go down, and we may pause new generations for
        maintenance (the API then answers with <code>ERR3001</code>).
      </p>
      <h2>Changes</h2>
      <p>
        When these terms change in substance, the version above changes. Signing in after that means you agree to the new version, and it is
        recorded in your accounts&apos; activity feed, as your first acceptance was.
      </p>
    </LegalPage>
  );
}
