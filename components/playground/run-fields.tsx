"use client";

import { ChevronRight } from "lucide-react";
import { useId } from "react";
import type { CreateField } from "@/components/models/model-types";
import { Checkbox, Field, Input, Textarea } from "@/components/ui";
import { Select } from "@/components/ui/select";
import { ProviderOrderField } from "./provider-order-field";
import { ADVANCED_FIELDS, controlOf, fieldLabel, type FormValue, type FormValues } from "./run-form";
import { UploadImage } from "./upload-image";

// The playground's controls, one per create field of the model, chosen by what the field accepts
// (run-form.ts); the advanced ones folded. Field errors are the create's own, by field name.
// Input-image fields take URLs or an upload (upload-image.tsx), which fills in its link.

export type RunFieldsProps = {
  fields: readonly CreateField[];
  values: FormValues;
  providers: readonly string[];
  errors: Record<string, string>;
  onChange: (field: string, value: FormValue) => void;
  /** False when the user's role may not run models here: uploads are refused for the same reason as Run. */
  mayUpload: boolean;
};

export function RunFields({ fields, values, providers, errors, onChange, mayUpload }: RunFieldsProps) {
  const main = fields.filter((field) => !ADVANCED_FIELDS.has(field.field));
  const advanced = fields.filter((field) => ADVANCED_FIELDS.has(field.field));
  const render = (field: CreateField) => (
    <RunField
      key={field.field}
      field={field}
      value={values[field.field] ?? ""}
      providers={providers}
      error={errors[field.field]}
      onChange={onChange}
      mayUpload={mayUpload}
    />
  );
  return (
    <div className="space-y-4">
      {main.map(render)}
      {advanced.length > 0 && (
        <details className="group rounded-md border border-zinc-200">
          <summary className="flex cursor-pointer items-center gap-1.5 px-3 py-2 text-sm font-medium text-zinc-700 select-none hover:text-zinc-900">
            <ChevronRight className="size-4 transition-transform group-open:rotate-90" aria-hidden />
            Advanced
          </summary>
          <div className="space-y-4 border-t border-zinc-200 p-3">{advanced.map(render)}</div>
        </details>
      )}
    </div>
  );
}

function RunField({
  field,
  value,
  providers,
  error,
  onChange,
  mayUpload,
}: {
  field: CreateField;
  value: FormValue;
  providers: readonly string[];
  error?: string;
  onChange: RunFieldsProps["onChange"];
  mayUpload: boolean;
}) {
  const id = useId();
  const label = fieldLabel(field.field);
  const hint = <span className="font-mono">{field.field}</span>;
  const set = (next: FormValue) => onChange(field.field, next);
  switch (controlOf(field)) {
    case "prompt":
      return (
        <Field label={label} required={field.required} error={error} hint={field.accepts}>
          <Textarea
            name={field.field}
            rows={3}
            value={String(value)}
            onChange={(event) => set(event.target.value)}
            placeholder="Describe what to make"
          />
        </Field>
      );
    case "choice": {
      const allowed = field.allowed ?? [];
      const numeric = allowed.every((item) => typeof item === "number");
      return (
        <Field label={label} required={field.required} error={error} hint={hint}>
          <Select
            name={field.field}
            value={String(value)}
            onChange={(event) => set(numeric ? Number(event.target.value) : event.target.value)}
          >
            {!field.required && field.default === null && <option value="">Not set</option>}
            {allowed.map((item) => (
              <option key={String(item)} value={String(item)}>
                {String(item)}
                {item === field.default ? " (default)" : ""}
              </option>
            ))}
          </Select>
        </Field>
      );
    }
    case "toggle":
      return (
        <Checkbox
          name={field.field}
          label={label}
          description={hint}
          checked={value === true}
          onChange={(event) => set(event.target.checked)}
        />
      );
    case "count":
      return (
        <Field label={label} error={error} hint={field.accepts}>
          <Input
            name={field.field}
            type="number"
            inputMode="numeric"
            min={1}
            max={field.max}
            step={1}
            value={String(value)}
            onChange={(event) => set(event.target.value === "" ? "" : Number(event.target.value))}
            className="w-28"
          />
        </Field>
      );
    case "urls": {
      const urls = Array.isArray(value) ? value : [];
      const given = urls.filter((url) => url.trim() !== "");
      return (
        <div className="space-y-2">
          <Field label={label} required={field.required} error={error} hint={`${field.accepts}; one URL a line, or upload`}>
            <Textarea
              name={field.field}
              rows={2}
              value={urls.join("\n")}
              onChange={(event) => set(event.target.value.split("\n"))}
              placeholder="https://…"
              className="font-mono text-xs"
            />
          </Field>
          <UploadImage
            label={label}
            urls={given}
            disabled={!mayUpload}
            onUploaded={(url) => set(field.max === 1 ? [url] : [...given, url])}
          />
        </div>
      );
    }
    case "url":
      return (
        <div className="space-y-2">
          <Field label={label} error={error} hint={`${field.accepts}; a URL, or upload`}>
            <Input
              name={field.field}
              type="url"
              value={String(value)}
              onChange={(event) => set(event.target.value)}
              placeholder="https://…"
              className="font-mono text-xs"
            />
          </Field>
          <UploadImage label={label} urls={value ? [String(value)] : []} disabled={!mayUpload} onUploaded={set} />
        </div>
      );
    case "providers":
      return (
        <div>
          <ProviderOrderField value={String(value)} providers={providers} onChange={set} idPrefix={id} />
          {error && <p className="mt-1 text-xs font-medium text-red-600">{error}</p>}
        </div>
      );
    case "text":
      return (
        <Field label={label} required={field.required} error={error} hint={field.accepts}>
          <Input name={field.field} value={String(value)} onChange={(event) => set(event.target.value)} />
        </Field>
      );
  }
}
