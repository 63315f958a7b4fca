-- Stream event ids become opaque cursors bound to their account (issue #43, server/live/event-cursor.ts).
-- The numeric ids sent before stay good for resuming, up to the last one issued when this runs: a
-- numeric id past it was never sent, and accepting any number would let a client find the global
-- position of its own events (and so count other accounts') by trying numbers. Older ids leave
-- with the 48 h purge of generation_event.
DO $$
BEGIN
  EXECUTE format(
    'CREATE FUNCTION darkroom_legacy_event_ids_end() RETURNS bigint LANGUAGE sql IMMUTABLE AS %L',
    'SELECT ' || coalesce(pg_sequence_last_value(pg_get_serial_sequence('generation_event', 'id')::regclass), 0)::text || '::bigint'
  );
END
$$;
