"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Lock } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiErrorFields, asSentence } from "@/components/trpc/api-error";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Badge, Button, Card, CardBody, CardFooter, CopyButton, DateTime, Field, Input, toast, FormError } from "@/components/ui";
import { AccountAvatar } from "@/components/dashboard/account-avatar";
import type { SettingsView } from "./settings-types";

// The account's name and picture (what GET /v1/user/account returns). Owners edit; members see
// the same values read-only. Saving refreshes the layout so the account switcher shows the name.

const MAX_NAME = 100;
const MAX_URL = 2048;
const readOnlyClass = "bg-zinc-50 text-zinc-600 focus-visible:ring-0";

export function AccountProfileCard({ account, canEdit }: { account: SettingsView["account"]; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState(account.name);
  const [pictureUrl, setPictureUrl] = useState(account.pictureUrl ?? "");
  const save = useMutation(
    trpc.settings.updateAccount.mutationOptions({
      onSuccess: async (result) => {
        toast.success(
          result.changed ? "Account updated" : "Nothing to change",
          result.changed ? { description: "API clients see the new values in GET /v1/user/account." } : undefined,
        );
        setName(result.name);
        setPictureUrl(result.pictureUrl ?? "");
        await queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey({ accountId: account.accountId }) });
        router.refresh();
      },
    }),
  );
  const fieldErrors = apiErrorFields(save.error);
  const dirty = name !== account.name || pictureUrl !== (account.pictureUrl ?? "");
  const otherError = save.isError && !fieldErrors.name && !fieldErrors.pictureUrl ? errorMessage(save.error) : null;

  return (
    <Card>
      <form
        aria-label="Account profile"
        onSubmit={(event) => {
          event.preventDefault();
          if (canEdit) save.mutate({ accountId: account.accountId, name, pictureUrl });
        }}
      >
        <CardBody className="space-y-5">
          <div className="flex items-center gap-4">
            <AccountAvatar name={name || account.name} pictureUrl={pictureUrl.startsWith("https://") ? pictureUrl : account.pictureUrl} />
            <div className="min-w-0 space-y-1">
              <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-900">
                <span className="truncate">{account.name}</span>
                <Badge tone={account.isPersonal ? "neutral" : "blue"}>{account.isPersonal ? "Personal" : "Team"}</Badge>
                <Badge className="capitalize">{account.plan}</Badge>
              </p>
              <p className="flex items-center gap-1 font-mono text-xs text-zinc-500">
                <span className="truncate">{account.accountId}</span>
                <CopyButton value={account.accountId} label="Copy account ID" />
              </p>
            </div>
          </div>

          <Field
            label="Account name"
            error={fieldErrors.name ? asSentence(`Account name ${fieldErrors.name}`) : undefined}
            hint={canEdit ? `Up to ${MAX_NAME} characters. Shown in the account switcher and to API clients.` : undefined}
          >
            <Input
              value={name}
              onChange={(event) => setName(event.target.value)}
              readOnly={!canEdit}
              className={canEdit ? undefined : readOnlyClass}
              maxLength={MAX_NAME + 20}
              autoComplete="organization"
            />
          </Field>
          <Field
            label="Picture URL"
            error={fieldErrors.pictureUrl ? asSentence(`Picture URL ${fieldErrors.pictureUrl}`) : undefined}
            hint={canEdit ? "An https:// address of a square image (PNG, JPG, SVG). Leave empty to use the initial." : undefined}
          >
            <Input
              type="url"
              inputMode="url"
              value={pictureUrl}
              onChange={(event) => setPictureUrl(event.target.value)}
              readOnly={!canEdit}
              className={canEdit ? undefined : readOnlyClass}
              placeholder={canEdit ? "https://example.com/logo.png" : "No picture"}
              maxLength={MAX_URL + 20}
              spellCheck={false}
            />
          </Field>
          <dl className="grid gap-x-6 gap-y-3 rounded-md bg-zinc-50 px-4 py-3 text-sm sm:grid-cols-2">
            <div className="min-w-0">
              <dt className="text-xs text-zinc-500">Billing e-mail</dt>
              <dd className="truncate text-zinc-900">{account.email}</dd>
            </div>
            <div>
              <dt className="text-xs text-zinc-500">Created</dt>
              <dd className="text-zinc-900">
                <DateTime date={account.createdAt} style="date" />
              </dd>
            </div>
          </dl>
          <FormError>{otherError}</FormError>
        </CardBody>
        <CardFooter className="justify-between">
          {canEdit ? (
            <>
              <span className="text-xs">Changes are recorded in the activity feed.</span>
              <Button type="submit" size="sm" loading={save.isPending} disabled={!dirty}>
                Save changes
              </Button>
            </>
          ) : (
            <span className="inline-flex items-center gap-1.5 text-xs font-medium text-zinc-600">
              <Lock className="size-3.5 text-zinc-400" aria-hidden />
              Only owners can change the account&apos;s name and picture
            </span>
          )}
        </CardFooter>
      </form>
    </Card>
  );
}
