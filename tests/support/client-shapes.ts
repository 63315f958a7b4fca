// Field lists of the shapes clients of this API shape read, shared by the
// suites that pin them.

/** Flat fields of `darkroom_implementation` that existing clients read (strings). */
export const IMPLEMENTATION_TEXT_FIELDS = [
  "delivery_method",
  "cancel_method",
  "webhook_verification",
  "error_mapping",
  "cost_tracking",
  "schema_conversion",
  "failover_strategy",
  "health_monitoring",
] as const;

/** Every key of `darkroom_implementation`: the documented integration and arrays, plus the flat fields. */
export const IMPLEMENTATION_KEYS = [
  "integration",
  "capabilities",
  "supported_models",
  ...IMPLEMENTATION_TEXT_FIELDS,
  "supported_media_types",
  "supported_models_total",
].sort();
