/** Shopify's Admin GraphQL operations Porter sends, and the parts of their answers it reads. */

const MONEY = "shopMoney { amount }";
const ADDRESS = "firstName lastName company address1 address2 city provinceCode countryCodeV2 zip phone";
const LINE_ITEM = `id name sku quantity variantTitle
  originalUnitPriceSet { ${MONEY} }
  image { url }
  product { legacyResourceId }
  variant { legacyResourceId inventoryItem { measurement { weight { unit value } } } }`;
/** Line items read with each order; an order with more has the rest read by LINE_ITEMS_QUERY. */
export const LINE_ITEMS_PER_ORDER = 10;

export const ORDERS_QUERY = `query PorterOrders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, sortKey: UPDATED_AT, query: $query) {
    pageInfo { hasNextPage endCursor }
    nodes {
      id legacyResourceId name createdAt updatedAt cancelledAt closed
      displayFinancialStatus displayFulfillmentStatus
      note tags email
      customer { legacyResourceId email }
      shippingAddress { ${ADDRESS} }
      billingAddress { ${ADDRESS} }
      shippingLine { title }
      subtotalPriceSet { ${MONEY} }
      totalTaxSet { ${MONEY} }
      totalShippingPriceSet { ${MONEY} }
      totalPriceSet { ${MONEY} }
      lineItems(first: ${LINE_ITEMS_PER_ORDER}) { pageInfo { hasNextPage endCursor } nodes { ${LINE_ITEM} } }
    }
  }
}`;

export const LINE_ITEMS_QUERY = `query PorterOrderLineItems($id: ID!, $after: String) {
  order(id: $id) {
    lineItems(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { ${LINE_ITEM} } }
  }
}`;

export const FULFILLMENT_ORDERS_QUERY = `query PorterFulfillmentOrders($id: ID!) {
  order(id: $id) {
    fulfillmentOrders(first: 50) {
      nodes {
        id status assignedLocation { name location { id } } supportedActions { action }
        lineItems(first: 250) { nodes { id remainingQuantity lineItem { id } } }
      }
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

export interface Money {
  shopMoney: { amount: string };
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
  quantity: number;
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
  customer: { legacyResourceId: string; email: string | null } | null;
  shippingAddress: MailingAddress | null;
  billingAddress: MailingAddress | null;
  shippingLine: { title: string } | null;
  subtotalPriceSet: Money | null;
  totalTaxSet: Money | null;
  totalShippingPriceSet: Money | null;
  totalPriceSet: Money | null;
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
  lineItems: { nodes: { id: string; remainingQuantity: number; lineItem: { id: string } }[] };
}

export interface FulfillmentOrdersAnswer {
  order: { fulfillmentOrders: { nodes: FulfillmentOrderNode[] } } | null;
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
