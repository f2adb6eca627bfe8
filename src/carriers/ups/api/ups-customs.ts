import type { CarrierItem } from "../../carrier.js";
import type { UpsInternationalForms, UpsMoney, UpsParty } from "./ups-wire.js";

/** Where UPS takes the goods' total on the shipment itself: from the US to Canada and Puerto Rico only. */
const SHIPMENT_TOTAL_ROUTES: Readonly<Record<string, readonly string[]>> = { US: ["CA", "PR"] };

/** Whether a shipment from one country to another carries `Shipment.InvoiceLineTotal`. */
export function takesInvoiceLineTotal(fromCountry: string, toCountry: string): boolean {
  return SHIPMENT_TOTAL_ROUTES[fromCountry]?.includes(toCountry) ?? false;
}

/** Porter's customs content types → UPS's `ReasonForExport`. */
const REASON_BY_CONTENT: Readonly<Record<string, string>> = {
  merchandise: "SALE",
  gift: "GIFT",
  sample: "SAMPLE",
  return: "RETURN",
  documents: "SALE",
  other: "SALE",
};

/** Cents as UPS writes money: dollars with two decimals. */
function dollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * The commercial invoice UPS is asked to make for a shipment abroad (`InternationalForms`, form
 * 01): one product per item, its value per unit in US dollars, and the reason for export from
 * the items' content type, numbered with the purchase's own key; with the goods' total for
 * `InvoiceLineTotal`. Items without a description or a value cannot be declared: the answer says
 * so in words.
 */
export function commercialInvoice(
  items: readonly CarrierItem[],
  soldTo: UpsParty & { Name: string; AttentionName: string },
  invoice: { number: string; date: string },
  fromCountry: string,
): { forms: UpsInternationalForms; invoiceLineTotal: UpsMoney } | { refusal: string } {
  if (items.length === 0) {
    return {
      refusal:
        "UPS needs the parcels' items (description, quantity and value) to make the commercial invoice of a shipment abroad.",
    };
  }
  const undeclared = items.findIndex((item) => !item.description?.trim() || item.valueCents === null);
  if (undeclared >= 0) {
    return { refusal: `Item ${undeclared + 1} needs a description and a value for UPS's commercial invoice.` };
  }
  const totalCents = items.reduce((sum, item) => sum + (item.valueCents ?? 0), 0);
  const reason = REASON_BY_CONTENT[items[0]?.contentType ?? "merchandise"] ?? "SALE";
  return {
    forms: {
      FormType: ["01"],
      Contacts: { SoldTo: soldTo },
      Product: items.map((item) => {
        const quantity = Math.max(1, item.quantity);
        const commodity = (item.hsTariffCode ?? "").replace(/[^0-9A-Za-z]/g, "");
        return {
          Description: [(item.description ?? "").trim().slice(0, 35)],
          Unit: {
            Number: String(quantity),
            UnitOfMeasurement: { Code: "PCS" },
            Value: dollars(Math.round((item.valueCents ?? 0) / quantity)),
          },
          ...(commodity.length >= 6 ? { CommodityCode: commodity.slice(0, 15) } : {}),
          OriginCountryCode: (item.countryOfOrigin ?? fromCountry).toUpperCase(),
        };
      }),
      InvoiceNumber: invoice.number.slice(0, 35),
      InvoiceDate: invoice.date.replace(/-/g, ""),
      ReasonForExport: reason,
      CurrencyCode: "USD",
    },
    invoiceLineTotal: { CurrencyCode: "USD", MonetaryValue: dollars(totalCents) },
  };
}
