import type { DomainServices } from "../services.js";
import type { ShipmentRecord } from "../shipments/shipments.repository.js";
import { loadShipmentRecords } from "../shipments/shipments.repository.js";

/** Tokens are 16 random bytes in base64url (22 characters); anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

/** What a shipment's public page may show: the shipment and the name of the account that sent it. */
export interface PublicTracking {
  accountName: string;
  /** The account's logo (an https URL), or null. */
  logoUrl: string | null;
  record: ShipmentRecord;
}

/**
 * The shipment whose public tracking token is `token`, with its sender's account name, or
 * undefined. No key is asked: the token is the capability, so nothing else of the account is read.
 */
export async function findPublicTracking(services: DomainServices, token: string): Promise<PublicTracking | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const found = await services.db
    .selectFrom("shipments")
    .innerJoin("accounts", "accounts.id", "shipments.account_id")
    .selectAll("shipments")
    .select(["accounts.name as account_name", "accounts.tracking_page_logo_url as account_logo_url"])
    .where("shipments.public_tracking_token", "=", token)
    .executeTakeFirst();
  if (!found) return undefined;
  const { account_name: accountName, account_logo_url: logoUrl, ...shipment } = found;
  const [record] = await loadShipmentRecords(services.db, [shipment]);
  return record ? { accountName, logoUrl, record } : undefined;
}

/** The account's public tracking page settings. */
export async function trackingPageSettings(services: DomainServices, accountId: number) {
  const row = await services.db
    .selectFrom("accounts")
    .select("tracking_page_logo_url")
    .where("id", "=", accountId)
    .executeTakeFirstOrThrow();
  return { logoUrl: row.tracking_page_logo_url };
}

/** Sets (or, with null, removes) the logo the account's public tracking pages show. */
export async function setTrackingPageLogo(services: DomainServices, accountId: number, logoUrl: string | null) {
  await services.db
    .updateTable("accounts")
    .set({ tracking_page_logo_url: logoUrl })
    .where("id", "=", accountId)
    .execute();
  return { logoUrl };
}
