import { z } from "zod";

// The one id check: whether a value is a UUID as zod's guid() has it (8-4-4-4-12 hex digits, any
// version). One schema for the process: zod builds a new schema on every z.guid() call, and the
// checks run several times a request (a record read, a reservation, a balance).

const guid = z.guid();

export const isGuid = (value: unknown): value is string => guid.safeParse(value).success;
