import type { LabelFormat, LabelSize } from "../labels/label.js";
import type {
  CarrierCode,
  RateCalcType,
  RatedParcel,
  RateQuote,
  ServiceDefinition,
  ServiceScope,
} from "./catalogue.js";

/** The carrier APIs a connected carrier offers; `GET /status` reports one row per API. */
export const CARRIER_APIS = ["rate", "label", "manifest", "tracking", "pickup"] as const;
export type CarrierApi = (typeof CARRIER_APIS)[number];
/** What the operator can say of a carrier's API (`porter carriers status`). */
export const SERVICE_STATES = ["online", "degraded", "offline"] as const;

/** An address as the carrier needs it; already validated at the edge. */
export interface CarrierAddress {
  company?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  address1: string;
  address2?: string | null;
  city: string;
  state: string;
  country: string;
  postal_code: string;
  /** Carriers' shipping APIs want a phone for the shipper (FedEx, UPS, DHL Express); rating does not. */
  phone?: string | null;
  email?: string | null;
}

export interface RateRequest {
  from: CarrierAddress;
  to: CarrierAddress;
  parcels: readonly RatedParcel[];
  /** Whether the destination is a residence (the address classifier decides). */
  residential: boolean;
  /** The services to rate: this carrier's, enabled for the account and asked for. */
  services: readonly ServiceDefinition[];
  /** YYYY-MM-DD, the day the parcels are handed over (a real carrier prices and dates by it). */
  shipDate?: string;
}

/** One service's answer: a price for the whole shipment, or why the service cannot carry it. */
export interface ServiceRate {
  service: ServiceDefinition;
  /** The zone the price was read in, as the carrier writes it ("05"), or null abroad. */
  zone: string | null;
  /** Package type of the first parcel, as rated. */
  packageType: string;
  /** The column the price tables were read in: the zone at home ("8"), the price group abroad. */
  priceGroup: string | null;
  /** How the parcels' prices were found, in parcel order without repeats. */
  rateCalcTypes: readonly RateCalcType[];
  quote?: RateQuote;
  /** The carrier's published retail price for the same shipment, where it publishes one. */
  retailCents?: number;
  /** The quote of each parcel, in order; `quote` is their sum. */
  parcelQuotes?: readonly RateQuote[];
  /** YYYY-MM-DD, the carrier's own delivery estimate where it gives one; else the service's transit days count. */
  deliveryDate?: string;
  /** The carrier's own business days in transit where it names them; else the service's longest. */
  transitDays?: number;
  refusal?: string;
}

/** One line of a parcel's contents, as customs and carriers' commercial invoices need it. */
export interface CarrierItem {
  description: string | null;
  quantity: number;
  /** Weight of the whole line, in ounces, where given. */
  weightOz: number | null;
  /** Value of the whole line, in US cents, where given. */
  valueCents: number | null;
  countryOfOrigin: string | null;
  hsTariffCode: string | null;
  /** The customs category (merchandise, gift, documents, sample, return, other). */
  contentType: string | null;
  /** The export filing: an AES ITN or an EEL exemption (eHub `customs_data.eel_pfc`). */
  eelPfc?: string | null;
}

/** What one parcel holds and how the shipper names it. */
export interface ParcelContents {
  /** The shipper's name for the parcel (printed as a reference where the carrier has one). */
  reference: string | null;
  items: readonly CarrierItem[];
}

/** How a return label is paid: at purchase (`print`) or at the carrier's first scan (`scan_based`). */
export interface ReturnLabelRequest {
  type: "print" | "scan_based";
}

/** A label purchase: the rated service, and one serial per parcel the carrier numbers from. */
export interface PurchaseRequest extends RateRequest {
  service: ServiceDefinition;
  /** Unique per purchase attempt, so a carrier can find (and void) what it sold under it. */
  purchaseKey: string;
  /** One per parcel, unique for the installation (the sandbox derives tracking numbers from it). */
  parcelSerials: readonly number[];
  /** YYYY-MM-DD, the carrier's day the parcels are handed over. */
  shipDate: string;
  /** The label file asked for: a carrier that makes its own labels makes this one. */
  label: { format: LabelFormat; size: LabelSize };
  /** One per parcel, in order. */
  contents: readonly ParcelContents[];
  /** Where returns go, when not to the sender. */
  returnTo?: CarrierAddress;
  /**
   * A return label: the parcel travels from the customer (`from`) back to the merchant (`to`);
   * the caller has already swapped the outbound's addresses.
   */
  returnLabel?: ReturnLabelRequest;
}

/** A label file the carrier made, stored as it is instead of one Porter draws. */
export interface CarrierLabel {
  bytes: Buffer;
  format: LabelFormat;
  widthIn: number;
  heightIn: number;
  /** Dots per inch of raster and printer formats; 72 for PDF. */
  dpi: number;
}

export interface PurchasedParcel {
  trackingNumber: string;
  /** What the main barcode encodes when it is not the tracking number (USPS: 420 + ZIP + PIC). */
  barcodeData?: string;
  /** The carrier's own label for this parcel; absent when Porter draws it (the sandbox carriers). */
  label?: CarrierLabel;
}

export interface Purchase {
  rate: ServiceRate;
  parcels: PurchasedParcel[];
  /** The shipment's customs document as the carrier made it (DHL Express's commercial invoice), a PDF. */
  customsDocument?: Buffer;
}

/**
 * Where a parcel stands, in one vocabulary for every carrier. `pre_transit`: the carrier has the
 * label data but not the parcel; `exception`: something went wrong (a failed delivery attempt, a
 * missort, damage); the others say what they say.
 */
export const TRACKING_STATUSES = [
  "pre_transit",
  "in_transit",
  "out_for_delivery",
  "available_for_pickup",
  "delivered",
  "returned",
  "exception",
] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

/** A place as a carrier's tracking event names it; any part may be unknown. */
export interface TrackingLocation {
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
}

/** One scan or notice, with the carrier's own code and words beside the normalized status. */
export interface CarrierTrackingEvent extends TrackingLocation {
  /** The carrier's position for the event in its history, so a re-read does not store it twice. */
  sequence: number;
  occurredAt: Date;
  /** USPS Pub 199 event code, UPS activity status type, FedEx event type, DHL event code. */
  code: string;
  /** UPS status code, FedEx derived status code; null where the carrier has none. */
  secondaryCode: string | null;
  description: string;
  status: TrackingStatus;
}

export interface TrackingRequest {
  trackingNumber: string;
  service: ServiceDefinition;
  from: CarrierAddress;
  to: CarrierAddress;
  /** When the label was bought. */
  labelCreatedAt: Date;
  /** The label's ship date (YYYY-MM-DD, the carrier's day). */
  shipDate: string;
  /** The delivery date promised at purchase (YYYY-MM-DD). */
  promisedDeliveryDate: string;
  /** When the carrier took the parcel on a manifest (SCAN form), if it was manifested. */
  acceptedAt?: Date;
  /** A carrier that takes parcels only after their label data is closed out: not before this. */
  acceptedNotBefore?: Date;
  /** The instant to report as of: now, for a real carrier. */
  asOf: Date;
  /**
   * Sandbox controls, ignored by real carriers: `timeScale` runs the journey that many times
   * faster; `shiftMs` moves it ahead by that much journey time; `outcome` forces how it ends.
   */
  simulation?: { timeScale: number; shiftMs: number; outcome?: string | null };
}

export interface TrackingReport {
  /** Every event known as of the request, oldest first. */
  events: CarrierTrackingEvent[];
  estimatedDeliveryDate: string | null;
  /** When the carrier expects its next event, if it can say (the sandbox can; real carriers rarely). */
  nextEventAt: Date | null;
}

/**
 * The carrier as a whole failed the call (outage, bad address for its API …); its words travel on.
 * `final` marks an answer that asking again cannot change (a job records it once, not retrying).
 */
export class CarrierError extends Error {
  constructor(
    readonly carrierCode: CarrierCode,
    message: string,
    readonly final = false,
  ) {
    super(message);
    this.name = "CarrierError";
  }
}

/** A shipment as a carrier's manifest sees it. */
export interface ManifestPiece {
  shipmentId: number;
  serviceCode: string;
  scope: ServiceScope;
  /** Package type of the first parcel. */
  packageType: string;
  /** YYYY-MM-DD, the label's mailing date. */
  shipDate: string;
  originPostalCode: string;
}

/** What one manifest document covers: the pieces handed over together. */
export interface ManifestForm {
  /** YYYY-MM-DD (carrier time): the day the pieces are handed over. */
  mailingDate: string;
  originPostalCode: string;
}

export interface ManifestRequest extends ManifestForm {
  scope: ServiceScope;
  /** Unique per document for the installation (the sandbox derives the document number from it). */
  serial: number;
  trackingNumberCount: number;
  /** The labels the document lists: a real carrier files them (USPS SCAN Forms); Porter always gives them. */
  trackingNumbers?: readonly string[];
  /** Who hands the pieces over (the first shipment's sender); Porter always gives it. */
  from?: CarrierAddress;
}

/** A document file a carrier made (a SCAN form image), kept byte for byte. */
export interface CarrierDocument {
  bytes: Buffer;
  format: LabelFormat;
}

export interface ManifestFiling {
  documentNumber: string;
  document?: CarrierDocument;
}

/** Manifests (USPS SCAN forms, DHL eCommerce manifests): the pieces a driver or a dock takes together. */
export interface ManifestCapability {
  /** What the document is called ("USPS SCAN Form (PS Form 5630)"). */
  readonly documentName: string;
  /** Most tracking numbers one document may list; a larger batch becomes several documents. */
  readonly documentLimit: number;
  /** Whether `POST /shipments/batches/daily` makes a batch of this carrier. */
  readonly daily: boolean;
  /**
   * Whether the carrier closes one ship date at a time (FedEx Ground's end-of-day close): a batch
   * is then dated its shipments' ship date rather than today.
   */
  readonly closesShipDate?: boolean;
  /** Why a piece cannot go on a document of this form, in words, or undefined when it can. */
  refusal(piece: ManifestPiece, form: ManifestForm): string | undefined;
  /** The line a piece is counted on in the document's summary ("Priority Mail", "International"). */
  countedAs(piece: Pick<ManifestPiece, "serviceCode" | "scope">): string;
  /**
   * Files the manifest with the carrier; returns the document's own number (USPS: the EFN) and
   * the carrier's own document where it makes one, stored instead of the one Porter draws.
   */
  fileManifest(request: ManifestRequest): Promise<ManifestFiling>;
}

export interface PickupAvailability {
  available: boolean;
  /** Why the asked day is not possible; null when it is. */
  reason: string | null;
  /** The asked day when available, else the next day that is. */
  pickupDate: string;
}

/** One shipment a pickup is for, as couriers list them (UPS pieces by service, DHL Express shipment details). */
export interface PickupShipment {
  service: ServiceDefinition;
  /** The parcels' tracking numbers, in order. */
  trackingNumbers: readonly string[];
  /** Destination country (ISO 3166-1 alpha-2). */
  toCountry: string;
  parcels: readonly RatedParcel[];
}

export interface PickupRequest {
  location: CarrierAddress;
  pickupDate: string;
  packageCount: number;
  weightOz: number;
  /** Unique per pickup for the installation (the sandbox derives the confirmation number from it). */
  serial: number;
  locationDetail: string | null;
  specialInstructions: string | null;
  /** The shipments picked up, those of the batches included. */
  shipments: readonly PickupShipment[];
  /** When the pickup is booked: couriers start a same-day window no earlier than this. */
  now: Date;
}

/** A booked pickup: the carrier's confirmation number, and what its cancellation needs besides (FedEx's location). */
export interface ScheduledPickup {
  confirmationNumber: string;
  details?: Record<string, string>;
}

/** A pickup to cancel, as it was booked. */
export interface BookedPickup extends ScheduledPickup {
  pickupDate: string;
}

/** Carrier pickups (USPS Package Pickup, UPS On-Call, FedEx, DHL Express): a driver comes for the parcels on a day. */
export interface PickupCapability {
  /**
   * Whether the carrier picks up on `pickupDate` (YYYY-MM-DD), asked at `now`; couriers judge the
   * day and their cut-off in the local time of `location`.
   */
  availability(pickupDate: string, now: Date, location?: CarrierAddress): PickupAvailability;
  /** Books the pickup; returns the carrier's confirmation number. */
  schedule(request: PickupRequest): Promise<ScheduledPickup>;
  cancel(pickup: BookedPickup): Promise<void>;
}

/** A carrier's verdict on an address, standardized the carrier's way. */
export interface AddressVerdict {
  valid: boolean;
  /** Why the address is not deliverable, in the carrier's words; empty when it is. */
  reasons: string[];
  /** The address as the carrier writes it (the input when the carrier has nothing better). */
  address: CarrierAddress;
  /** Whether the carrier knows it as a residence; null when it does not say. */
  residential: boolean | null;
}

/** Address validation through the carrier (USPS Addresses, UPS XAV, FedEx Address Validation). */
export interface AddressCapability {
  validate(address: CarrierAddress): Promise<AddressVerdict>;
}

/**
 * What Porter asks of a carrier. A carrier is one folder implementing this; adding one touches no
 * route. Later capabilities (manifests, pickups) join this interface as they land.
 */
export interface CarrierAdapter {
  readonly code: CarrierCode;
  /** How the carrier names itself in messages, e.g. "USPS", "FedEx". */
  readonly displayName: string;
  readonly services: readonly ServiceDefinition[];
  /** The carrier APIs this carrier has (USPS has all five; UPS has no manifest). */
  readonly apis: readonly CarrierApi[];
  rate(request: RateRequest): Promise<ServiceRate[]>;
  /** The zone between two US ZIP codes as the carrier writes it ("05"); throws for unknown codes. */
  zone(fromZip: string, toZip: string): string;
  /** Buys labels: one tracking number per parcel. A service that cannot carry the shipment throws. */
  purchase(request: PurchaseRequest): Promise<Purchase>;
  /** Voids labels sold earlier (a cancelled shipment, or a purchase that could not be recorded). */
  voidLabels(trackingNumbers: readonly string[]): Promise<void>;
  /** Present when the carrier takes manifests (USPS, DHL eCommerce). */
  readonly manifests?: ManifestCapability;
  /** Present when the carrier comes to pick parcels up (USPS; a real UPS, FedEx or DHL Express connection). */
  readonly pickups?: PickupCapability;
  /** Present when the carrier validates addresses itself; validate_address asks it before Porter's own rules. */
  readonly addresses?: AddressCapability;
  /**
   * The label formats a label bought through the carrier comes in, when the carrier makes its
   * labels itself (real carriers): the file it answers is that format, or a raster Porter re-encodes
   * into it (UPS's GIF as PNG or PDF). A purchase in another format is refused naming these.
   * Absent: Porter draws every format.
   */
  readonly labelFormats?: readonly LabelFormat[];
  /** A parcel's tracking history as of `request.asOf`; a carrier that does not answer throws CarrierError. */
  track(request: TrackingRequest): Promise<TrackingReport>;
}
