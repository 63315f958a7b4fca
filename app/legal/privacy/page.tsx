import { LegalPage } from "@/components/legal/legal-page";
import { PRIVACY_EFFECTIVE_DATE, PRIVACY_VERSION } from "@/server/consent/legal-versions";

export const metadata = { title: "Privacy Policy" };

export default function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy" version={PRIVACY_VERSION} effective={PRIVACY_EFFECTIVE_DATE}>
      <p>
        This page says what this Darkroom service keeps about you, why, and for how long. Each region (us, eu, jp) keeps its data in its own
        database.
      </p>
      <h2>What we keep</h2>
      <ul>
        <li>Your e-mail address (and a name, if you give one), the accounts you belong to and your role in each.</li>
        <li>When you agreed to these terms, and which versions.</li>
        <li>Your prompts, generation settings and output files.</li>
        <li>
          For each API request: the key, route, status, your client&apos;s user agent and a SHA-256 hash of its IP address. We never keep
          the raw IP.
        </li>
        <li>
          An activity feed per account: changes to keys, webhooks, billing, members and so on, and your sign-ins and sign-outs with the
          browser family (&quot;Firefox&quot;), never the IP.
        </li>
        <li>Problems you report from the dashboard: your text, the page you were on and your browser&apos;s user agent.</li>
        <li>Only a hash of each sign-in link and API key; the links and keys themselves are never stored.</li>
      </ul>
      <h2>Who else sees it</h2>
      <ul>
        <li>The other members of an account see that account&apos;s data, including its activity feed.</li>
        <li>
          Inference providers receive the prompts and settings of the generations they run. Stripe processes payments (we never see card
          numbers). Resend delivers our e-mails when it is configured.
        </li>
        <li>
          We do not sell your data and use no advertising or tracking cookies. The dashboard sets one signed session cookie (30 days) and
          the cookies sign-in needs.
        </li>
      </ul>
      <h2>How long</h2>
      <p>
        Output files and webhook delivery logs are deleted after your plan&apos;s retention period. The rest stays until you ask us to
        delete it: you may ask for a copy of your data or for its deletion at any time.
      </p>
      <h2>Changes</h2>
      <p>
        When this policy changes in substance, the version above changes, and your next sign-in records that you were shown the new version.
      </p>
    </LegalPage>
  );
}
