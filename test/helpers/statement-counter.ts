import type { KyselyPlugin } from "kysely";

/** Counts the statements sent through the Kysely instance it is plugged into. */
export class StatementCounter implements KyselyPlugin {
  count = 0;
  transformQuery: KyselyPlugin["transformQuery"] = (args) => {
    this.count += 1;
    return args.node;
  };
  transformResult: KyselyPlugin["transformResult"] = async (args) => args.result;
}
