"use client";

import { useQuery } from "@tanstack/react-query";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { StorageLinkCard } from "@/components/storage/storage-link-card";
import { useTRPC } from "@/components/trpc/react";
import { Card, CardBody, PageHeader, Skeleton } from "@/components/ui";
import { AccountProfileCard } from "./account-profile-card";
import { DangerZoneCard } from "./danger-zone-card";
import { EmailPreferencesCard } from "./email-preferences-card";
import { PlaygroundAccessCard } from "./playground-access-card";
import { SessionsCard } from "./sessions-card";
import { SettingsSection } from "./settings-section";
import { UserProfileCard } from "./user-profile-card";

// Settings: the account's name and picture (owners edit, members read), then what belongs to the
// signed-in person (their name, marketing e-mail consent, their sessions), then the danger zone.

export function SettingsPage() {
  const { accountId, isOwner } = useAccount();
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.get.queryOptions({ accountId }));

  return (
    <div className="space-y-8">
      <PageHeader title="Settings" description="This account's profile, and your own name, e-mail preferences and sessions." />

      <QueryStates query={settings} subject="Settings" placement="page" loading={<SettingsSkeleton />}>
        {(data) => (
          <div className="space-y-8">
            <SettingsSection
              id="account"
              title="Account"
              description={
                <>
                  How this account appears in the switcher and to API clients (
                  <code className="font-mono text-xs">GET /v1/user/account</code>).
                  {isOwner ? null : " Owners can change it."}
                </>
              }
            >
              <AccountProfileCard key={`${data.account.name}|${data.account.pictureUrl ?? ""}`} account={data.account} canEdit={isOwner} />
            </SettingsSection>

            <SettingsSection
              id="playground"
              title="Running models"
              description={
                <>
                  Who may run models from the dashboard&apos;s playground and Compare page. Runs are billed to this account.
                  {isOwner ? null : " Owners can change it."}
                </>
              }
            >
              <PlaygroundAccessCard accountId={accountId} canEdit={isOwner} />
            </SettingsSection>

            <SettingsSection
              id="storage"
              title="Storage"
              description="Where generation outputs are written: Darkroom's storage, or this account's own S3-compatible bucket."
            >
              <StorageLinkCard accountId={accountId} />
            </SettingsSection>

            <SettingsSection id="profile" title="Your profile" description="About you, in every account you belong to.">
              <UserProfileCard key={data.viewer.name ?? ""} accountId={accountId} viewer={data.viewer} />
            </SettingsSection>

            <SettingsSection id="email" title="E-mail preferences" description="What we may send you beyond the e-mails the service needs.">
              <EmailPreferencesCard accountId={accountId} viewer={data.viewer} />
            </SettingsSection>

            <SettingsSection id="sessions" title="Sessions" description="Where you are signed in to the dashboard.">
              <SessionsCard />
            </SettingsSection>

            <SettingsSection id="danger" title="Danger zone" description="Irreversible actions on this account.">
              <DangerZoneCard settings={data} />
            </SettingsSection>
          </div>
        )}
      </QueryStates>
    </div>
  );
}

function SettingsSkeleton() {
  return (
    <div aria-busy className="space-y-8">
      {[0, 1, 2].map((section) => (
        <div key={section} className="grid gap-4 md:grid-cols-[minmax(0,16rem)_minmax(0,1fr)] md:gap-10">
          <div className="space-y-2">
            <Skeleton className="w-24" />
            <Skeleton className="w-48" />
          </div>
          <Card>
            <CardBody className="space-y-4">
              <Skeleton className="h-9 w-full" />
              <Skeleton className="h-9 w-2/3" />
            </CardBody>
          </Card>
        </div>
      ))}
    </div>
  );
}
