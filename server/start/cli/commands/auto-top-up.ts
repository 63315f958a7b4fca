import { inTransaction } from "../../../base/transaction";
import { startCardSetup } from "../../../billing/auto-top-up/card-setup";
import { prepareAutoTopUp, saveAutoTopUp, turnOffAutoTopUp } from "../../../billing/auto-top-up/save-setting";
import { parseAutoTopUp, showAutoTopUp, type AutoTopUpFields } from "../../../billing/auto-top-up/setting";
import { ACTOR, existingAccount, uuidFlag, type Command } from "./command";

// Auto top-up from the CLI, as the primary owner sets it on the billing page: `set` checks the
// flags before booting, reads the pack's price from Stripe, saves the setting, and without a saved
// card prints the Checkout (setup mode) link that saves one and turns it on.

const CLI_FIELDS: AutoTopUpFields = { threshold: "below", pack: "pack", monthlyCap: "monthly-cap" };

export const autoTopUpCommands: Record<string, Command> = {
  "auto-top-up:set": {
    usage: "auto-top-up:set --account A --below T --pack N --monthly-cap X (T credits; N a pack size; X USD a month)",
    required: ["account", "below", "pack", "monthly-cap"],
    optional: [],
    transaction: false,
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const request = { threshold: flags.below ?? "", pack: flags.pack ?? "", monthlyCap: flags["monthly-cap"] ?? "" };
      parseAutoTopUp(request, CLI_FIELDS);
      return async (db) => {
        const scope = await existingAccount(db, accountId);
        const prepared = await prepareAutoTopUp(db, scope, { actor: ACTOR, request, fields: CLI_FIELDS });
        const setting = await inTransaction((tx) => saveAutoTopUp(tx, scope, prepared));
        const cardSetup = setting.card ? null : await startCardSetup(db, scope, { userId: null });
        return {
          account_id: accountId,
          auto_top_up: setting,
          ...(cardSetup
            ? {
                card_setup_url: cardSetup.url,
                note: "No card is saved: auto top-up turns on once the primary owner saves one at card_setup_url.",
              }
            : {}),
        };
      };
    },
  },
  "auto-top-up:off": {
    usage: "auto-top-up:off --account A",
    required: ["account"],
    optional: [],
    transaction: false,
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      return async (db) => {
        const scope = await existingAccount(db, accountId);
        return { account_id: accountId, auto_top_up: await inTransaction((tx) => turnOffAutoTopUp(tx, scope, ACTOR)) };
      };
    },
  },
  "auto-top-up:show": {
    usage: "auto-top-up:show --account A",
    required: ["account"],
    optional: [],
    transaction: false,
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      return async (db) => ({ account_id: accountId, auto_top_up: await showAutoTopUp(db, await existingAccount(db, accountId)) });
    },
  },
};
