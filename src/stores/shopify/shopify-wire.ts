/** Shopify's Admin GraphQL operations Porter sends, and the parts of their answers it reads. */

/**
 * Shopify refuses any query whose requested cost is over 1,000 points, counted before it runs: a
 * connection costs 2 + `first` × one node, an object 1, a scalar 0. The page sizes below keep every
 * document under that with room to spare; nested connections are walked with their own cursors.
 */
export const MAX_QUERY_COST = 1000;

/** Amounts in the shop's currency and in the currency the buyer paid in, each with its code. */
const MONEY = "shopMoney { amount currencyCode } presentmentMoney { amount currencyCode }";
const ADDRESS = "firstName lastName company address1 address2 city provinceCode countryCodeV2 zip phone";
const LINE_ITEM = `id name sku currentQuantity variantTitle
  originalUnitPriceSet { ${MONEY} }
  image { url }
  product { legacyResourceId }
  variant { legacyResourceId inventoryItem { measurement { weight { unit value } } } }`;
/** Line items read with each order (10 points each); an order with more has the rest read by LINE_ITEMS_QUERY. */
export const LINE_ITEMS_PER_ORDER = 5;
/** Orders per page at most: 2 + 10 × (19 + 5 × 10) = 692 points. */
export const MAX_ORDERS_PER_PAGE = 10;
/** Further line items per call: 1 + 2 + 90 × 10 = 903 points. */
export const LINE_ITEMS_PER_PAGE = 90;
/** Fulfillment orders per call, each with its first line items: 3 + 10 × (6 + 40 × 2) = 863 points. */
export const FULFILLMENT_ORDERS_PER_PAGE = 10;
export const FULFILLMENT_ORDER_LINES_PER_ORDER = 40;
/** Further lines of one fulfillment order per call: 3 + 250 × 2 = 503 points. */
export const FULFILLMENT_ORDER_LINES_PER_PAGE = 250;

export const ORDERS_QUERY = `query PorterOrders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, sortKey: UPDATED_AT, query: $query) {
    pageInfo { hasNextPage endCursor }
    nodes {
      id legacyResourceId name createdAt updatedAt cancelledAt closed
      displayFinancialStatus displayFulfillmentStatus
      note tags email taxesIncluded currencyCode presentmentCurrencyCode
      customer { legacyResourceId }
      shippingAddress { ${ADDRESS} }
      billingAddress { ${ADDRESS} }
      shippingLine { title }
      currentSubtotalPriceSet { ${MONEY} }
      currentTotalTaxSet { ${MONEY} }
      currentShippingPriceSet { ${MONEY} }
      currentTotalPriceSet { ${MONEY} }
      lineItems(first: ${LINE_ITEMS_PER_ORDER}) { pageInfo { hasNextPage endCursor } nodes { ${LINE_ITEM} } }
    }
  }
}`;

export const LINE_ITEMS_QUERY = `query PorterOrderLineItems($id: ID!, $after: String) {
  order(id: $id) {
    lineItems(first: ${LINE_ITEMS_PER_PAGE}, after: $after) { pageInfo { hasNextPage endCursor } nodes { ${LINE_ITEM} } }
  }
}`;

const FULFILLMENT_ORDER_LINE = "id remainingQuantity lineItem { id }";

export const FULFILLMENT_ORDERS_QUERY = `query PorterFulfillmentOrders($id: ID!, $after: String) {
  order(id: $id) {
    fulfillmentOrders(first: ${FULFILLMENT_ORDERS_PER_PAGE}, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes {
        id status assignedLocation { name location { id } } supportedActions { action }
        lineItems(first: ${FULFILLMENT_ORDER_LINES_PER_ORDER}) {
          pageInfo { hasNextPage endCursor }
          nodes { ${FULFILLMENT_ORDER_LINE} }
        }
      }
    }
  }
}`;

export const FULFILLMENT_ORDER_LINES_QUERY = `query PorterFulfillmentOrderLines($id: ID!, $after: String) {
  fulfillmentOrder(id: $id) {
    lineItems(first: ${FULFILLMENT_ORDER_LINES_PER_PAGE}, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes { ${FULFILLMENT_ORDER_LINE} }
    }
  }
}`;

export const FULFILLMENT_CREATE = `mutation PorterFulfillmentCreate($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id status }
    userErrors { field message }
  }
}`;

export const FULFILLMENT_CANCEL = `mutation PorterFulfillmentCancel($id: ID!) {
  fulfillmentCancel(id: $id) {
    fulfillment { id status }
    userErrors { field message }
  }
}`;

export const SHOP_QUERY = "query PorterShop { shop { name myshopifyDomain } }";

export interface MoneyV2 {
  amount: string;
  currencyCode: string;
}

export interface Money {
  shopMoney: MoneyV2;
  presentmentMoney: MoneyV2;
}

export interface MailingAddress {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  provinceCode: string | null;
  countryCodeV2: string | null;
  zip: string | null;
  phone: string | null;
}

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface LineItemNode {
  id: string;
  name: string | null;
  sku: string | null;
  currentQuantity: number;
  variantTitle: string | null;
  originalUnitPriceSet: Money | null;
  image: { url: string } | null;
  product: { legacyResourceId: string } | null;
  variant: {
    legacyResourceId: string;
    inventoryItem: { measurement: { weight: { unit: string; value: number } | null } | null } | null;
  } | null;
}

export interface LineItemConnection {
  pageInfo: PageInfo;
  nodes: LineItemNode[];
}

export interface OrderNode {
  id: string;
  legacyResourceId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  closed: boolean;
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string;
  note: string | null;
  tags: string[];
  email: string | null;
  taxesIncluded: boolean;
  currencyCode: string;
  presentmentCurrencyCode: string;
  customer: { legacyResourceId: string } | null;
  shippingAddress: MailingAddress | null;
  billingAddress: MailingAddress | null;
  shippingLine: { title: string } | null;
  currentSubtotalPriceSet: Money | null;
  currentTotalTaxSet: Money | null;
  currentShippingPriceSet: Money | null;
  currentTotalPriceSet: Money | null;
  lineItems: LineItemConnection;
}

export interface OrdersAnswer {
  orders: { pageInfo: PageInfo; nodes: OrderNode[] };
}

export interface LineItemsAnswer {
  order: { lineItems: LineItemConnection } | null;
}

export interface FulfillmentOrderNode {
  id: string;
  status: string;
  assignedLocation: { name: string; location: { id: string } | null } | null;
  supportedActions: { action: string }[];
  lineItems: FulfillmentOrderLineConnection;
}

export interface FulfillmentOrderLineConnection {
  pageInfo: PageInfo;
  nodes: { id: string; remainingQuantity: number; lineItem: { id: string } }[];
}

export interface FulfillmentOrdersAnswer {
  order: { fulfillmentOrders: { pageInfo: PageInfo; nodes: FulfillmentOrderNode[] } } | null;
}

export interface FulfillmentOrderLinesAnswer {
  fulfillmentOrder: { lineItems: FulfillmentOrderLineConnection } | null;
}

export interface UserError {
  field: string[] | null;
  message: string;
}

export interface FulfillmentCreateAnswer {
  fulfillmentCreate: { fulfillment: { id: string; status: string } | null; userErrors: UserError[] };
}

export interface FulfillmentCancelAnswer {
  fulfillmentCancel: { fulfillment: { id: string; status: string } | null; userErrors: UserError[] };
}

/** An order as Shopify's `orders/create` and `orders/updated` webhooks send it (the REST shape). */
export interface WebhookOrder {
  id: number;
  name: string;
  created_at?: string | null;
  updated_at: string;
  cancelled_at?: string | null;
  closed_at?: string | null;
  financial_status?: string | null;
  fulfillment_status?: string | null;
  note?: string | null;
  tags?: string | null;
  email?: string | null;
  customer?: { id: number; email?: string | null } | null;
  shipping_address?: WebhookAddress | null;
  billing_address?: WebhookAddress | null;
  shipping_lines?: { title?: string | null }[];
  taxes_included?: boolean | null;
  /** The shop's currency, in which the amounts are. */
  currency?: string | null;
  presentment_currency?: string | null;
  subtotal_price?: string | null;
  total_tax?: string | null;
  total_price?: string | null;
  total_shipping_price_set?: { shop_money?: { amount?: string } } | null;
  line_items?: {
    id: number;
    name?: string | null;
    title?: string | null;
    sku?: string | null;
    quantity: number;
    /** The quantity less refunded and removed units. */
    current_quantity?: number | null;
    price?: string | null;
    grams?: number | null;
    product_id?: number | null;
    variant_id?: number | null;
    variant_title?: string | null;
  }[];
}

export interface WebhookAddress {
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  province_code?: string | null;
  country_code?: string | null;
  zip?: string | null;
  phone?: string | null;
}

/** Shopify's global id of a resource from its numeric id, and back. */
export const gid = (type: string, id: string) => `gid://shopify/${type}/${id}`;
export const numericId = (globalId: string) => globalId.slice(globalId.lastIndexOf("/") + 1);
