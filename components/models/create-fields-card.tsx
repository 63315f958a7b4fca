import { Badge, Card, CardHeader, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import type { CreateField, ModelDescription } from "./model-types";
import { StackedItem, StackedList } from "./stacked-list";

// What the model's create accepts, field by field, as the API validates it.

const show = (value: string | number | boolean) => (typeof value === "string" ? value : JSON.stringify(value));

export function CreateFieldsCard({ model }: { model: ModelDescription }) {
  return (
    <Card aria-labelledby="create-fields-title">
      <CardHeader
        title={<span id="create-fields-title">Create fields</span>}
        description={
          <>
            The body of <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs text-zinc-800">POST {model.create_path}</code>;
            any other field is refused.
          </>
        }
      />
      <StackedList>
        {model.fields.map((field) => (
          <StackedItem
            key={field.field}
            title={<span className="font-mono text-xs break-all text-zinc-900">{field.field}</span>}
            aside={<Requirement required={field.required} />}
          >
            <p className="text-zinc-600">{field.accepts}</p>
            {field.allowed !== null && <AllowedValues values={field.allowed} />}
            {field.default !== null && (
              <p className="text-xs text-zinc-500">
                Default <span className="font-mono text-zinc-800">{show(field.default)}</span>
              </p>
            )}
          </StackedItem>
        ))}
      </StackedList>
      <Table className="hidden sm:table">
        <THead>
          <TR>
            <TH>Field</TH>
            <TH>Required</TH>
            <TH>Accepts</TH>
            <TH>Allowed values</TH>
            <TH>Default</TH>
          </TR>
        </THead>
        <TBody>
          {model.fields.map((field) => (
            <FieldRow key={field.field} field={field} />
          ))}
        </TBody>
      </Table>
    </Card>
  );
}

function FieldRow({ field }: { field: CreateField }) {
  return (
    <TR data-field={field.field}>
      <TD className="font-mono text-xs whitespace-nowrap text-zinc-900">{field.field}</TD>
      <TD>
        <Requirement required={field.required} />
      </TD>
      <TD className="min-w-48 text-zinc-600">{field.accepts}</TD>
      <TD className="min-w-40">
        {field.allowed === null ? <span className="text-zinc-400">—</span> : <AllowedValues values={field.allowed} />}
      </TD>
      <TD className="font-mono text-xs whitespace-nowrap">
        {field.default === null ? <span className="font-sans text-zinc-400">—</span> : show(field.default)}
      </TD>
    </TR>
  );
}

function Requirement({ required }: { required: boolean }) {
  return required ? <Badge tone="amber">Required</Badge> : <span className="text-zinc-500">Optional</span>;
}

function AllowedValues({ values }: { values: Array<string | number | boolean> }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Allowed values">
      {values.map((value) => (
        <li key={show(value)} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">
          {show(value)}
        </li>
      ))}
    </ul>
  );
}
