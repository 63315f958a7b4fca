import "server-only";
import { deleteRemovedHostname } from "../../hostnames/remove-hostname";
import { inTransaction } from "../../base/transaction";
import { inngest } from "../../base/events/client";
import { hostnameRemovalRequested } from "../../base/events/definitions";

// hostname/removal.requested → delete the `removing` hostname and record `domain.removed`, in one
// step (the row was already out of service when it became `removing`).

export const customHostnameRemove = inngest.createFunction(
  { id: "custom-hostname-remove", triggers: [hostnameRemovalRequested], retries: 5 },
  async ({ event, step }) => step.run("delete", () => inTransaction((tx) => deleteRemovedHostname(tx, event.data))),
);
