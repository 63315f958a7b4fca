import "server-only";
import { z } from "zod";

// zod → JSON Schema draft 2020-12 (the dialect of OpenAPI 3.1), tidied for reading: no `$schema`
// inside the document, no regex next to a `format` that already says it, no ±2^53 integer bounds.

export type JsonSchema = { [keyword: string]: unknown };
export type SchemaIo = "input" | "output";

export const COMPONENT_SCHEMA_PREFIX = "#/components/schemas/";
const FORMATS_WITH_OWN_PATTERN = new Set(["uuid", "date-time", "email", "uri"]);

type OverrideContext = { zodSchema: z.core.$ZodTypes; jsonSchema: JsonSchema };

function tidy(io: SchemaIo) {
  return ({ zodSchema, jsonSchema }: OverrideContext) => {
    if (typeof jsonSchema.format === "string" && FORMATS_WITH_OWN_PATTERN.has(jsonSchema.format)) delete jsonSchema.pattern;
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    // A response object gains fields over time; only strict request objects refuse extras.
    const def = zodSchema._zod.def;
    if (io === "output" && def.type === "object" && def.catchall === undefined && jsonSchema.additionalProperties === false) {
      delete jsonSchema.additionalProperties;
    }
  };
}

function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

const isNever = (schema: unknown) => JSON.stringify(schema) === '{"not":{}}';

/**
 * A component as it sits in the document: zod's `$id` (a bare fragment, which 2020-12 forbids in
 * `$id`) and `$schema` go, and so do `{not: {}}` properties of closed objects, which
 * `additionalProperties: false` already refuses.
 */
function asComponent(schema: JsonSchema): JsonSchema {
  const { $id: _id, ...rest } = withoutDialect(schema);
  if (rest.additionalProperties === false && typeof rest.properties === "object" && rest.properties !== null) {
    rest.properties = Object.fromEntries(Object.entries(rest.properties).filter(([, property]) => !isNever(property)));
  }
  return rest;
}

/** One schema, inline (no components). */
export function toJsonSchema(schema: z.ZodType, io: SchemaIo): JsonSchema {
  return withoutDialect(z.toJSONSchema(schema, { target: "draft-2020-12", io, override: tidy(io) }) as JsonSchema);
}

/**
 * Named schemas for components.schemas. A named schema nested in another becomes a `$ref` to its
 * component, so each shape is defined once in the document.
 */
export function toComponentSchemas(named: Record<string, z.ZodType>, io: SchemaIo): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const seen = new Map<z.ZodType, string>();
  for (const [id, schema] of Object.entries(named)) {
    const earlier = seen.get(schema);
    if (earlier) throw new Error(`Component ${id} is the same schema as ${earlier}`);
    seen.set(schema, id);
    registry.add(schema, { id });
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io,
    uri: (id) => `${COMPONENT_SCHEMA_PREFIX}${id}`,
    override: tidy(io),
  });
  if ("__shared" in schemas) throw new Error("A schema outside the components was extracted; name it as a component");
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, asComponent(schema as JsonSchema)]));
}
