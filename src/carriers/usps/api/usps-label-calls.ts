import { randomUUID } from "node:crypto";
import type { Clock } from "../../../clock.js";
import { OAuthToken } from "../../api-client/carrier-auth.js";
import { CarrierCallError, type CarrierHttpClient, isCarrierOutage } from "../../api-client/carrier-http-client.js";
import {
  CarrierError,
  type Purchase,
  type PurchasedParcel,
  type PurchaseRequest,
  type ServiceRate,
} from "../../carrier.js";
import type { RatedParcel, RateQuote } from "../../catalogue.js";
import { rateCalcType } from "../../sandbox/eligibility.js";
import { quoteFromLines } from "../../sandbox/money.js";
import { combineQuotes } from "../../sandbox/sandbox-carrier.js";
import { voidBeforeFailing } from "../../unvoided-labels.js";
import type { UspsCredentials } from "./usps-credentials.js";
import { uspsInternationalProduct } from "./usps-international.js";
import {
  internationalLabelRequest,
  isInternationalNumber,
  USPS_INTERNATIONAL_FORMATS,
} from "./usps-international-labels.js";
import {
  labelCostLines,
  labelRefusal,
  labelRequest,
  paymentAuthorizationRequest,
  readLabelAnswer,
  returnLabelRequest,
  USPS_IMAGE_TYPES,
  USPS_LABEL_SIZES,
  type UspsLabelFormat,
} from "./usps-labels.js";
import { uspsProduct } from "./usps-products.js";
import type { UspsCancelResponse, UspsLabelMetadata, UspsPaymentAuthorizationResponse } from "./usps-wire.js";

/** USPS's payment authorization tokens live eight hours (Payments API). */
const PAYMENT_TOKEN_LIFETIME_S = 8 * 60 * 60;

/**
 * The connection's payment authorization token (`POST /payments/v3/payment-authorization`),
 * kept for its eight hours as USPS asks and renewed once however many purchases want it at once.
 */
export function uspsPaymentToken(client: CarrierHttpClient, credentials: UspsCredentials, clock: Clock): OAuthToken {
  return new OAuthToken(async () => {
    let request: ReturnType<typeof paymentAuthorizationRequest>;
    try {
      request = paymentAuthorizationRequest(credentials);
    } catch (error) {
      throw new CarrierError("usps", `USPS labels cannot be bought: ${(error as Error).message}`);
    }
    const answer = await client.json<Partial<UspsPaymentAuthorizationResponse>>({
      method: "POST",
      path: "/payments/v3/payment-authorization",
      purpose: "label",
      json: request,
    });
    if (typeof answer.paymentAuthorizationToken !== "string" || answer.paymentAuthorizationToken === "") {
      throw client.error("USPS answered the payment authorization without a token.");
    }
    return { accessToken: answer.paymentAuthorizationToken, expiresInS: PAYMENT_TOKEN_LIFETIME_S };
  }, clock);
}

/**
 * A call that spends postage: with the payment token, which USPS may stop accepting before its
 * eight hours (revoked, or the account changed): then it is renewed once and the call retried.
 */
async function withPayment<T>(paymentToken: OAuthToken, call: (token: string) => Promise<T>): Promise<T> {
  try {
    return await call(await paymentToken.value());
  } catch (error) {
    if (!(error instanceof CarrierCallError) || error.status !== 401) throw error;
    paymentToken.forget();
    return call(await paymentToken.value());
  }
}

/** Label attempts after the first when USPS's answer is lost (a timeout, a 5xx). */
const LOST_ANSWER_RETRIES = 1;

/**
 * A label call whose answer was lost may have sold the label: it is asked again under the same
 * idempotency key, which USPS answers with that label instead of selling a second one.
 */
async function sellOnce<T>(call: (idempotencyKey: string) => Promise<T>, idempotencyKey: string): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(idempotencyKey);
    } catch (error) {
      if (!isCarrierOutage(error) || attempt >= LOST_ANSWER_RETRIES) throw error;
    }
  }
}

/** USPS labels for one connection: bought with the payment token, voided by tracking number. */
export class UspsLabels {
  constructor(
    private readonly client: CarrierHttpClient,
    private readonly paymentToken: OAuthToken,
  ) {}

  /**
   * Buys one label per parcel (`POST /labels/v3/label`, or International Labels with the
   * parcel's customs form abroad), in the format asked for, each stored as
   * USPS made it. What USPS charged (postage and fees) is the purchase's price. A parcel USPS
   * refuses voids the labels already bought for the shipment, and the purchase fails in USPS's words.
   */
  async purchase(request: PurchaseRequest): Promise<Purchase> {
    const refusal = labelRefusal(request.label.format, request.label.size);
    if (refusal) throw new CarrierError("usps", refusal);
    const format = request.label.format as UspsLabelFormat;
    const bought: { parcel: PurchasedParcel; metadata: UspsLabelMetadata }[] = [];
    try {
      for (const [index, parcel] of request.parcels.entries()) {
        bought.push(await this.#buyOne(request, parcel, index, format));
      }
    } catch (error) {
      throw await voidBeforeFailing(
        error,
        bought.map((b) => b.parcel.trackingNumber),
        (sold) => this.voidLabels(sold),
      );
    }
    return { rate: this.#rateOf(request, bought), parcels: bought.map((b) => b.parcel) };
  }

  async #buyOne(request: PurchaseRequest, parcel: RatedParcel, index: number, format: UspsLabelFormat) {
    const { path, body } = this.#labelOrder(request, parcel, index, format);
    // One key per label, kept through every retry: USPS answers a repeated key and request with
    // the label it already sold (Labels and International Labels, `X-Idempotency-Key`).
    const idempotencyKey = randomUUID();
    const answer = await sellOnce(
      (key) =>
        withPayment(this.paymentToken, (token) =>
          this.client.send({
            method: "POST",
            path,
            purpose: "label",
            json: body,
            headers: {
              accept: "application/vnd.usps.labels+json",
              "x-payment-authorization-token": token,
              "x-idempotency-key": key,
            },
          }),
        ),
      idempotencyKey,
    );
    let read: ReturnType<typeof readLabelAnswer>;
    try {
      read = readLabelAnswer(answer.headers.get("content-type") ?? "", answer.bytes);
    } catch (error) {
      throw this.client.error(`USPS answered the label request unreadably: ${(error as Error).message}`, answer.status);
    }
    const size = USPS_LABEL_SIZES[request.label.size] as { widthIn: number; heightIn: number };
    const { metadata } = read;
    return {
      metadata,
      parcel: {
        trackingNumber: metadata.trackingNumber,
        ...(metadata.routingInformation
          ? { barcodeData: `${metadata.routingInformation}${metadata.trackingNumber}` }
          : {}),
        label: {
          bytes: read.image,
          format,
          widthIn: size.widthIn,
          heightIn: size.heightIn,
          dpi: USPS_IMAGE_TYPES[format].dpi,
        },
      },
    };
  }

  /**
   * The Labels call for one parcel: Labels at home, International Labels (with customs) abroad,
   * and a return label through Labels' returns call, which is domestic only.
   */
  #labelOrder(request: PurchaseRequest, parcel: RatedParcel, index: number, format: UspsLabelFormat) {
    if (request.returnLabel && request.service.scope === "international") {
      throw new CarrierError("usps", "USPS makes return labels within the US only.");
    }
    if (request.service.scope === "international") {
      if (!(USPS_INTERNATIONAL_FORMATS as readonly string[]).includes(format)) {
        throw new CarrierError(
          "usps",
          `USPS makes international labels as ${USPS_INTERNATIONAL_FORMATS.join(", ")}; not ${format}.`,
        );
      }
      const product = uspsInternationalProduct(request.service, parcel);
      if ("refusal" in product) throw new CarrierError("usps", product.refusal);
      const body = internationalLabelRequest({
        from: request.from,
        to: request.to,
        product,
        parcel,
        contents: request.contents[index],
        format: format as (typeof USPS_INTERNATIONAL_FORMATS)[number],
        mailingDate: request.shipDate,
      });
      if ("refusal" in body) throw new CarrierError("usps", `USPS cannot make this label: ${body.refusal}.`);
      return { path: "/international-labels/v3/international-label", body };
    }
    const product = uspsProduct(request.service, parcel);
    if ("refusal" in product) throw new CarrierError("usps", product.refusal);
    const order = {
      from: request.from,
      to: request.to,
      product,
      parcel,
      format,
      size: request.label.size,
      mailingDate: request.shipDate,
      parcelNumber: index + 1,
      parcelCount: request.parcels.length,
      reference: request.contents[index]?.reference,
    };
    if (!request.returnLabel) return { path: "/labels/v3/label", body: labelRequest(order) };
    const body = returnLabelRequest(order);
    if ("refusal" in body) throw new CarrierError("usps", body.refusal);
    return { path: "/labels/v3/return-label", body };
  }

  #rateOf(request: PurchaseRequest, bought: { metadata: UspsLabelMetadata }[]): ServiceRate {
    const international = request.service.scope === "international";
    const parcelQuotes: RateQuote[] = bought.map(({ metadata }, index) => {
      const parcel = request.parcels[index] as RatedParcel;
      // Labels gives the dimensional weight in ounces, International Labels in pounds (a string).
      const dimensionalLb = international
        ? Number(metadata.dimensionalWeight ?? 0) || 0
        : Number(metadata.dimensionalWeight ?? 0) / 16;
      const billedLb = Math.max(metadata.weight ?? 0, dimensionalLb);
      return quoteFromLines(labelCostLines(metadata), billedLb > 0 ? Math.round(billedLb * 16) : parcel.weightOz);
    });
    const first = bought[0]?.metadata as (UspsLabelMetadata & { internationalPriceGroup?: string }) | undefined;
    const column = (international ? first?.internationalPriceGroup : first?.zone) ?? null;
    return {
      service: request.service,
      zone: international ? null : column,
      packageType: request.parcels[0]?.packageType ?? "parcel",
      priceGroup: column === null ? null : String(Number(column)),
      rateCalcTypes: [...new Set(request.parcels.map((p) => rateCalcType(request.service, p.packageType)))],
      quote: combineQuotes(parcelQuotes),
      parcelQuotes,
    };
  }

  /**
   * Cancels labels (`DELETE /labels/v3/label/{trackingNumber}`): USPS cancels one whose data it
   * has not sent on yet, and takes a refund request for one it has (DISPUTED). Every label is
   * tried; those USPS refuses are named together.
   */
  async voidLabels(trackingNumbers: readonly string[]): Promise<void> {
    const refused: string[] = [];
    const outages: CarrierCallError[] = [];
    for (const trackingNumber of trackingNumbers) {
      try {
        await withPayment(this.paymentToken, (token) =>
          this.client.json<UspsCancelResponse>({
            method: "DELETE",
            path: isInternationalNumber(trackingNumber)
              ? `/international-labels/v3/international-label/${encodeURIComponent(trackingNumber)}`
              : `/labels/v3/label/${encodeURIComponent(trackingNumber)}`,
            purpose: "label",
            headers: { "x-payment-authorization-token": token },
          }),
        );
      } catch (error) {
        if (!(error instanceof CarrierError)) throw error;
        if (isCarrierOutage(error)) outages.push(error);
        refused.push(`${trackingNumber}: ${error.message}`);
      }
    }
    // USPS out for every label it did not void is its outage, not a refusal of the void.
    if (outages.length > 0 && outages.length === refused.length) throw outages[0];
    if (refused.length > 0) throw new CarrierError("usps", `USPS did not void every label (${refused.join("; ")}).`);
  }
}
