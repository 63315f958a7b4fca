import "server-only";
import { z } from "zod";
import { db } from "../../../base/db";
import { inTransaction } from "../../../base/transaction";
import {
  prepareDestination,
  removeDestination,
  retestDestination,
  saveDestination,
  showDestination,
} from "../../../storage/destinations/store";
import { createTRPCRouter, memberProcedure, primaryOwnerProcedure } from "../trpc";

// The Storage settings page: everyone in the account sees the destination (never its secret);
// only the primary owner sets, tests or removes it. Values are checked by the domain
// (parseDestination), so a bad one is ERR1001 naming its field.

const destinationInput = z.object({
  endpoint: z.string().max(1000),
  region: z.string().max(100),
  bucket: z.string().max(100),
  prefix: z.string().max(400).optional(),
  accessKeyId: z.string().max(300),
  secretAccessKey: z.string().max(500),
  pathStyle: z.boolean().optional(),
  linkTtl: z.string().max(20).optional(),
  publicBaseUrl: z.string().max(1000).optional(),
  fallback: z.string().max(20).optional(),
});

export const storageRouter = createTRPCRouter({
  destination: memberProcedure.query(({ ctx }) => showDestination(db, ctx.scope)),

  setDestination: primaryOwnerProcedure.input(destinationInput).mutation(async ({ ctx, input }) => {
    const destination = await prepareDestination(input);
    return inTransaction((tx) => saveDestination(tx, ctx.scope, destination, ctx.userId));
  }),

  testDestination: primaryOwnerProcedure.mutation(({ ctx }) => retestDestination(db, ctx.scope)),

  removeDestination: primaryOwnerProcedure.mutation(({ ctx }) => inTransaction((tx) => removeDestination(tx, ctx.scope, ctx.userId))),
});
