/** Each carrier's public tracking page, by the carrier codes and the names merchants write. */
const PAGES: Record<string, (trackingNumber: string) => string> = {
  usps: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  ups: (n) => `https://www.ups.com/track?tracknum=${n}`,
  fedex: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  dhl_express: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=${n}`,
  dhl_ecommerce: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-ecommerce.html?tracking-id=${n}`,
};

const ALIASES: Record<string, string> = {
  dhl: "dhl_express",
  "dhl express": "dhl_express",
  "dhl ecommerce": "dhl_ecommerce",
};

/** Where the buyer follows a parcel, or null for a carrier Porter does not know. */
export function publicTrackingUrl(carrier: string, trackingNumber: string): string | null {
  const name = carrier.trim().toLowerCase();
  const page = PAGES[ALIASES[name] ?? name];
  return page ? page(encodeURIComponent(trackingNumber)) : null;
}
