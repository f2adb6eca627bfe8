import { type Command, Option } from "commander";
import type { AppServices } from "../app-services.js";
import type { StoreType } from "../domain/orders/order-stores.js";
import type { OrderStoreRow } from "../domain/orders/order-stores.repository.js";
import type { AccountScope } from "../domain/services.js";
import { type KeyMode, modeOption, type Output, positiveInteger, print, withServices } from "./output.js";

const STORE_TYPES: readonly StoreType[] = ["custom", "shopify", "woocommerce"];

interface ScopeOptions {
  account: number;
  mode: KeyMode;
}

/** The credentials each option carries; secrets may come from the environment so they stay out of shell history. */
const CREDENTIAL_OPTIONS = [
  { flag: "--shop-domain <domain>", key: "shop_domain", help: "shopify: the shop's myshopify.com domain" },
  { flag: "--client-id <id>", key: "client_id", help: "shopify: the Dev Dashboard app's client ID" },
  {
    flag: "--client-secret <secret>",
    key: "client_secret",
    help: "shopify: the Dev Dashboard app's client secret",
    env: "PORTER_STORE_CLIENT_SECRET",
  },
  {
    flag: "--access-token <token>",
    key: "access_token",
    help: "shopify: a legacy custom app's Admin API access token (shpat_…)",
    env: "PORTER_STORE_ACCESS_TOKEN",
  },
  { flag: "--site-url <url>", key: "site_url", help: "woocommerce: the site's URL" },
  {
    flag: "--consumer-key <key>",
    key: "consumer_key",
    help: "woocommerce: REST API consumer key",
    env: "PORTER_STORE_CONSUMER_KEY",
  },
  {
    flag: "--consumer-secret <secret>",
    key: "consumer_secret",
    help: "woocommerce: REST API consumer secret",
    env: "PORTER_STORE_CONSUMER_SECRET",
  },
  {
    flag: "--webhook-secret <secret>",
    key: "webhook_secret",
    help: "shopify, woocommerce: the secret the platform signs its webhooks with",
    env: "PORTER_STORE_WEBHOOK_SECRET",
  },
] as const;

const optionName = (key: string) => key.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());

/** What is shown of a store: never its credentials, sealed or not. */
function shown(row: OrderStoreRow) {
  return {
    id: row.id,
    account_id: row.account_id,
    mode: row.mode,
    name: row.name,
    service_type: row.service_type,
    external_id: row.external_id,
    sync_status: row.sync_status,
    sync_error: row.sync_error,
    last_synced_at: row.last_synced_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const line = (row: Pick<OrderStoreRow, "id" | "service_type" | "mode" | "name">) =>
  `${row.id}\t${row.service_type}\t${row.mode}\t${row.name}`;

/** The store domain, loaded when a store command runs rather than with the CLI. */
async function storeDomain() {
  const [stores, { platformOf }, { syncOrderStore }, { findAccount }, { DomainError, notFound }] = await Promise.all([
    import("../domain/orders/order-stores.js"),
    import("../domain/orders/store-connection.js"),
    import("../domain/orders/sync-order-store.js"),
    import("../domain/accounts/accounts.repository.js"),
    import("../domain/errors.js"),
  ]);
  return { ...stores, platformOf, syncOrderStore, findAccount, DomainError, notFound };
}

/** The account must exist: a store of a missing account is a mistake worth naming. */
async function scopeOf(services: AppServices, options: ScopeOptions): Promise<AccountScope> {
  const { findAccount, notFound } = await storeDomain();
  if (!(await findAccount(services.db, options.account))) throw notFound("account", options.account);
  return { accountId: options.account, mode: options.mode };
}

function withScope(command: Command): Command {
  return command
    .requiredOption("--account <id>", "account id", positiveInteger("--account"))
    .addOption(modeOption("key mode the store serves"));
}

export function addStoresCommands(program: Command, out: () => Output): Command {
  const stores = program.command("stores").description("manage order stores (custom, Shopify, WooCommerce)");

  withScope(stores.command("list").description("list an account's order stores")).action((options: ScopeOptions) =>
    withServices(async (services) => {
      const { findOrderStores } = await storeDomain();
      const rows = (await findOrderStores(services, await scopeOf(services, options))).map(shown);
      print(out(), rows, () => rows.map(line).join("\n") || "No stores.");
    }),
  );

  const create = withScope(
    stores
      .command("create")
      .description("create a custom store or connect a Shopify or WooCommerce store; credentials are stored sealed"),
  )
    .requiredOption("--name <name>", "store name")
    .addOption(new Option("--type <type>", "store type").choices([...STORE_TYPES]).makeOptionMandatory())
    .option("--external-id <id>", "your own id for the store");
  for (const credential of CREDENTIAL_OPTIONS) {
    const option = new Option(credential.flag, credential.help);
    create.addOption("env" in credential ? option.env(credential.env) : option);
  }
  create.action(
    (options: ScopeOptions & { name: string; type: StoreType; externalId?: string } & Record<string, unknown>) =>
      withServices(async (services) => {
        const { createOrderStore } = await storeDomain();
        const credentials = Object.fromEntries(
          CREDENTIAL_OPTIONS.flatMap(({ key }) => {
            const value = options[optionName(key)];
            return typeof value === "string" ? [[key, value]] : [];
          }),
        );
        const row = await createOrderStore(services, await scopeOf(services, options), options.type, {
          name: options.name,
          externalId: options.externalId ?? null,
          credentials,
        });
        print(out(), shown(row), () => `Created ${row.service_type} store ${row.id} (${row.name})`);
      }),
  );

  withScope(stores.command("show").description("show one store"))
    .requiredOption("--id <id>", "store id", positiveInteger("--id"))
    .action((options: ScopeOptions & { id: number }) =>
      withServices(async (services) => {
        const { getOrderStore } = await storeDomain();
        const row = await getOrderStore(services, await scopeOf(services, options), options.id);
        print(out(), shown(row), () => line(row));
      }),
    );

  withScope(stores.command("rename").description("rename a store"))
    .requiredOption("--id <id>", "store id", positiveInteger("--id"))
    .requiredOption("--name <name>", "new name")
    .action((options: ScopeOptions & { id: number; name: string }) =>
      withServices(async (services) => {
        const { changeOrderStore } = await storeDomain();
        const row = await changeOrderStore(services, await scopeOf(services, options), options.id, {
          name: options.name,
        });
        print(out(), shown(row), () => `Renamed store ${row.id} to ${row.name}`);
      }),
    );

  withScope(stores.command("delete").description("delete a store; its orders stay in the database"))
    .requiredOption("--id <id>", "store id", positiveInteger("--id"))
    .action((options: ScopeOptions & { id: number }) =>
      withServices(async (services) => {
        const { deleteOrderStore } = await storeDomain();
        const row = await deleteOrderStore(services, await scopeOf(services, options), options.id);
        print(out(), { deleted: row.id }, () => `Deleted store ${row.id}`);
      }),
    );

  withScope(stores.command("sync").description("import a platform store's new and changed orders now"))
    .requiredOption("--id <id>", "store id", positiveInteger("--id"))
    .option("--full", "read every order again, not only those changed since the last sync")
    .action((options: ScopeOptions & { id: number; full?: boolean }) =>
      withServices(async (services) => {
        const { getOrderStore, platformOf, syncOrderStore, DomainError } = await storeDomain();
        const store = await getOrderStore(services, await scopeOf(services, options), options.id);
        if (!platformOf(services, store)) {
          throw new DomainError(
            "order_store.no_connector",
            `Store ${store.id} is a ${store.service_type} store: there is no platform to sync from.`,
          );
        }
        const synced =
          (await syncOrderStore(services, { storeId: store.id, ...(options.full && { since: null }) })) ?? store;
        if (synced.sync_status === "failed")
          throw new Error(`the sync of store ${store.id} failed: ${synced.sync_error}`);
        print(
          out(),
          shown(synced),
          () => `Synced store ${synced.id}; orders changed up to ${synced.sync_cursor ?? "(none yet)"} are imported`,
        );
      }),
    );

  return stores;
}
