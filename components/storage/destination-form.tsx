"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Link2, ServerCog, ShieldAlert, type LucideIcon } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTRPC } from "@/components/trpc/react";
import { Button, Card, CardFooter, CardHeader, Checkbox, Field, FormError, Input, toast } from "@/components/ui";
import { Select } from "@/components/ui/select";
import { RadioCard } from "./radio-card";
import {
  DEFAULT_LINK_LIFETIME,
  durationLabel,
  durationValue,
  formErrorsOf,
  linkLifetimes,
  objectKeyPattern,
  type FormField,
} from "./storage-format";
import type { DestinationView } from "./storage-types";

// Connect (or replace) the account's bucket. Saving is the server's real test write (put, read
// back, delete), so the button says so while it runs; a refusal comes back as ERR1001 with the
// sentence naming the step (shown at the top) and the field at fault with its reason (shown under
// that field). The access key id and the secret are typed again on a replace: neither is shown.

type Values = {
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
  links: "presigned" | "public";
  linkTtl: string;
  publicBaseUrl: string;
  fallback: "fail" | "darkroom";
};

const REQUIRED: FormField[] = ["endpoint", "region", "bucket", "accessKeyId", "secretAccessKey"];

function initialValues(view: DestinationView | null): Values {
  return {
    endpoint: view?.endpoint ?? "",
    region: view?.region ?? "",
    bucket: view?.bucket ?? "",
    prefix: view?.prefix ?? "",
    accessKeyId: "",
    secretAccessKey: "",
    pathStyle: view?.path_style ?? false,
    links: view?.links.kind ?? "presigned",
    linkTtl: view?.links.kind === "presigned" ? durationValue(view.links.ttl_seconds) : DEFAULT_LINK_LIFETIME,
    publicBaseUrl: view?.links.kind === "public" ? view.links.base_url : "",
    fallback: view?.fallback ?? "fail",
  };
}

export type DestinationFormProps = {
  accountId: string;
  /** The destination being replaced; null when connecting the first one. */
  current: DestinationView | null;
  /** How long Darkroom's storage keeps a file on this plan ("1 hour"), for the fallback's wording. */
  retention: string | null;
  onSaved: (view: DestinationView) => void;
  onCancel?: () => void;
};

export function DestinationForm({ accountId, current, retention, onSaved, onCancel }: DestinationFormProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(() => initialValues(current));
  const [missing, setMissing] = useState<FormField[]>([]);
  // Fields edited since the last refusal: their server reason is stale, so it is hidden.
  const [edited, setEdited] = useState<FormField[]>([]);

  const save = useMutation(
    trpc.storage.setDestination.mutationOptions({
      onSuccess: async (view) => {
        queryClient.setQueryData(trpc.storage.destination.queryKey({ accountId }), view);
        toast.success(current ? "Bucket replaced" : "Bucket connected", {
          description: `Outputs now go to ${view.bucket}${view.prefix ? `/${view.prefix}` : ""}.`,
        });
        onSaved(view);
        await queryClient.invalidateQueries({ queryKey: trpc.account.recentActivity.pathKey() });
      },
    }),
  );

  // A refusal's sentence sits at the top of a long form: bring it into view (Save is at the bottom).
  const messageRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (save.error) messageRef.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [save.error]);

  const server = formErrorsOf(save.error);
  const errorOf = (field: FormField): string | undefined => {
    if (missing.includes(field)) return "Required.";
    return edited.includes(field) ? undefined : server.fields[field];
  };
  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    const named: FormField = field === "links" ? (value === "public" ? "publicBaseUrl" : "linkTtl") : (field as FormField);
    setEdited((previous) => (previous.includes(named) ? previous : [...previous, named]));
    setMissing((previous) => previous.filter((entry) => entry !== named));
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const required = [...REQUIRED, ...(values.links === "public" ? (["publicBaseUrl"] as const) : [])];
    const empty = required.filter((field) => String(values[field as keyof Values]).trim() === "");
    setMissing(empty);
    if (empty.length > 0) {
      document.getElementById(`storage-${empty[0]}`)?.focus();
      return;
    }
    setEdited([]);
    save.mutate({
      accountId,
      endpoint: values.endpoint.trim(),
      region: values.region.trim(),
      bucket: values.bucket.trim(),
      prefix: values.prefix.trim(),
      accessKeyId: values.accessKeyId.trim(),
      secretAccessKey: values.secretAccessKey,
      pathStyle: values.pathStyle,
      ...(values.links === "public" ? { publicBaseUrl: values.publicBaseUrl.trim() } : { linkTtl: values.linkTtl }),
      fallback: values.fallback,
    });
  }

  const lifetimes: Array<{ value: string; label: string }> = [...linkLifetimes];
  if (!lifetimes.some((lifetime) => lifetime.value === values.linkTtl) && current?.links.kind === "presigned")
    lifetimes.push({ value: values.linkTtl, label: durationLabel(current.links.ttl_seconds) });
  const pending = save.isPending;
  const topMessage = missing.length > 0 ? "Fill in the required fields." : save.isError ? server.message : null;

  return (
    <Card>
      {/* Named without any field's label in it, so getByLabel("Bucket") finds the field alone. */}
      <form onSubmit={submit} noValidate aria-label={current ? "Replace storage destination" : "New storage destination"}>
        <CardHeader
          title={current ? "Replace the bucket" : "Connect your bucket"}
          description="Any S3-compatible store: AWS S3, Cloudflare R2, Backblaze B2, MinIO, Google Cloud Storage (S3 interoperability) or DigitalOcean Spaces."
        />
        {topMessage && (
          <div ref={messageRef} className="scroll-mt-20 px-5 pt-5">
            <FormError>{topMessage}</FormError>
          </div>
        )}
        <fieldset disabled={pending} className="divide-y divide-zinc-100">
          <FormSection icon={ServerCog} title="Bucket">
            <Field
              id="storage-endpoint"
              label="Endpoint URL"
              required
              hint="The store's S3 API address. Public HTTPS on port 443."
              error={errorOf("endpoint")}
            >
              <Input
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://s3.eu-west-1.amazonaws.com"
                className="font-mono text-[13px]"
                value={values.endpoint}
                onChange={(event) => set("endpoint", event.target.value)}
              />
            </Field>
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                id="storage-region"
                label="Region"
                required
                hint="Such as us-east-1; auto for Cloudflare R2."
                error={errorOf("region")}
              >
                <Input
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="us-east-1"
                  className="font-mono text-[13px]"
                  value={values.region}
                  onChange={(event) => set("region", event.target.value)}
                />
              </Field>
              <Field id="storage-bucket" label="Bucket" required hint="An existing bucket; nothing is created." error={errorOf("bucket")}>
                <Input
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="my-outputs"
                  className="font-mono text-[13px]"
                  value={values.bucket}
                  onChange={(event) => set("bucket", event.target.value)}
                />
              </Field>
            </div>
            <Field
              id="storage-prefix"
              label="Prefix"
              hint={
                <>
                  Optional folders for the outputs. May use <Token>{"{generation_id}"}</Token>, <Token>{"{account_id}"}</Token> and{" "}
                  <Token>{"{date}"}</Token> (UTC, YYYY-MM-DD). Objects are written as{" "}
                  <span className="font-mono break-all text-zinc-700">
                    {objectKeyPattern(values.prefix.trim().replace(/^\/+|\/+$/g, ""))}
                  </span>
                  .
                </>
              }
              error={errorOf("prefix")}
            >
              <Input
                autoComplete="off"
                spellCheck={false}
                placeholder="darkroom/{date}"
                className="font-mono text-[13px]"
                value={values.prefix}
                onChange={(event) => set("prefix", event.target.value)}
              />
            </Field>
            <div className="space-y-1">
              {/* The description sits outside the label: the box's name is "Path-style addressing" alone. */}
              <Checkbox
                label="Path-style addressing"
                checked={values.pathStyle}
                onChange={(event) => set("pathStyle", event.target.checked)}
                aria-describedby="storage-pathStyle-hint"
                aria-invalid={errorOf("pathStyle") ? true : undefined}
              />
              <p id="storage-pathStyle-hint" className="pl-6.5 text-xs text-zinc-500">
                Requests go to endpoint/bucket rather than bucket.endpoint. MinIO and most self-hosted stores need it.
              </p>
              <FieldReason>{errorOf("pathStyle")}</FieldReason>
            </div>
          </FormSection>

          <FormSection icon={KeyRound} title="Credentials">
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                id="storage-accessKeyId"
                label="Access key id"
                required
                hint={current ? `Enter it again; the saved one ends in ${current.access_key_id.replace(/^…/, "")}.` : undefined}
                error={errorOf("accessKeyId")}
              >
                <Input
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={current ? current.access_key_id : "AKIA…"}
                  className="font-mono text-[13px]"
                  value={values.accessKeyId}
                  onChange={(event) => set("accessKeyId", event.target.value)}
                />
              </Field>
              <Field
                id="storage-secretAccessKey"
                label="Secret access key"
                required
                hint={current ? "Enter it again: it is never shown." : "Encrypted at rest and never shown again."}
                error={errorOf("secretAccessKey")}
              >
                <Input
                  type="password"
                  autoComplete="new-password"
                  spellCheck={false}
                  placeholder="••••••••••••••••"
                  className="font-mono text-[13px]"
                  value={values.secretAccessKey}
                  onChange={(event) => set("secretAccessKey", event.target.value)}
                />
              </Field>
            </div>
            <p className="text-xs text-zinc-500">
              The key needs <span className="font-mono text-zinc-700">PutObject</span>,{" "}
              <span className="font-mono text-zinc-700">GetObject</span> and <span className="font-mono text-zinc-700">DeleteObject</span>{" "}
              on the bucket, and nothing more.
            </p>
          </FormSection>

          <FormSection icon={Link2} title="Links" legend>
            <div className="space-y-2.5">
              <RadioCard
                name="storage-links"
                value="presigned"
                checked={values.links === "presigned"}
                onChange={() => set("links", "presigned")}
                title="Presigned links"
                description="For a private bucket. Each output link is a signed Darkroom link that lives the lifetime you choose and redirects to the object. Your credentials never leave our servers."
              >
                <Field id="storage-linkTtl" label="Link lifetime" className="max-w-56" error={errorOf("linkTtl")}>
                  <Select value={values.linkTtl} onChange={(event) => set("linkTtl", event.target.value)}>
                    {lifetimes.map((lifetime) => (
                      <option key={lifetime.value} value={lifetime.value}>
                        {lifetime.label}
                      </option>
                    ))}
                  </Select>
                </Field>
              </RadioCard>
              <RadioCard
                name="storage-links"
                value="public"
                checked={values.links === "public"}
                onChange={() => set("links", "public")}
                title="Public base URL"
                description="For a public bucket or a CDN in front of it. Links are this URL followed by the object key, and do not expire."
              >
                <Field id="storage-publicBaseUrl" label="Base URL" required error={errorOf("publicBaseUrl")}>
                  <Input
                    type="url"
                    inputMode="url"
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="https://cdn.example.com"
                    className="font-mono text-[13px]"
                    value={values.publicBaseUrl}
                    onChange={(event) => set("publicBaseUrl", event.target.value)}
                  />
                </Field>
              </RadioCard>
            </div>
            {values.links === "public" ? null : <FieldReason>{errorOf("publicBaseUrl")}</FieldReason>}
          </FormSection>

          <FormSection icon={ShieldAlert} title="If the bucket refuses a write" legend>
            <div className="grid gap-2.5 sm:grid-cols-2">
              <RadioCard
                name="storage-fallback"
                value="fail"
                checked={values.fallback === "fail"}
                onChange={() => set("fallback", "fail")}
                title="Fail the generation"
                description="After 3 tries it fails with upload_failed and its credits are refunded. Nothing is kept anywhere else."
              />
              <RadioCard
                name="storage-fallback"
                value="darkroom"
                checked={values.fallback === "darkroom"}
                onChange={() => set("fallback", "darkroom")}
                title="Keep it in Darkroom's storage"
                description={`The file is kept with us instead${retention ? ` for ${retention}` : ""}, and the record says darkroom for it.`}
              />
            </div>
            <FieldReason>{errorOf("fallback")}</FieldReason>
          </FormSection>
        </fieldset>

        <CardFooter className="flex-wrap justify-between gap-3">
          <p className="text-xs">Saving writes a small test object under the prefix, reads it back and deletes it.</p>
          <div className="ml-auto flex items-center gap-2">
            {onCancel && (
              <Button variant="ghost" size="sm" disabled={pending} onClick={onCancel}>
                Cancel
              </Button>
            )}
            <Button type="submit" size="sm" loading={pending}>
              {pending ? "Testing the bucket…" : "Save"}
            </Button>
          </div>
        </CardFooter>
      </form>
    </Card>
  );
}

/** A group of the form: its icon and title on top, its controls below; `legend` for a group of radios. */
function FormSection({
  icon: Icon,
  title,
  legend = false,
  children,
}: {
  icon: LucideIcon;
  title: string;
  legend?: boolean;
  children: ReactNode;
}) {
  const heading = (
    <span className="flex items-center gap-2 text-xs font-medium tracking-wide text-zinc-500 uppercase">
      <Icon className="size-3.5 text-zinc-400" aria-hidden />
      {title}
    </span>
  );
  if (legend)
    return (
      <fieldset className="space-y-4 px-5 py-5">
        <legend className="float-left mb-4 w-full">{heading}</legend>
        <div className="clear-both space-y-4">{children}</div>
      </fieldset>
    );
  return (
    <div className="space-y-5 px-5 py-5">
      <h3>{heading}</h3>
      {children}
    </div>
  );
}

function Token({ children }: { children: ReactNode }) {
  return <code className="rounded bg-zinc-100 px-1 py-px font-mono text-[11px] text-zinc-700">{children}</code>;
}

function FieldReason({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return <p className="text-xs font-medium text-red-600">{children}</p>;
}
