import type { FastifyInstance } from "fastify";
import { BoundedMap } from "../../../bounded-map.js";
import type { RateShipment } from "../../../domain/rates/get-rates.js";
import { jsonTextParser } from "../../plugins/body-parsers.js";
import { insuredCentsOf } from "../shipment.schemas.js";
import { normalizeLocation, normalizeServiceIds } from "../shipment-input.js";
import type { RateRequestBody } from "./rates.schemas.js";

/** Enough for every cart a busy checkout re-rates at once; the memory starts over when full. */
const REMEMBERED_TEXTS = 1000;
/**
 * A cart's question is a kilobyte or two; longer texts (padding and unknown fields the schema
 * drops) are not kept, so the memory stays small whatever clients send.
 */
const LONGEST_REMEMBERED_TEXT = 16 * 1024;

/**
 * Rate questions remembered by their JSON text. A checkout asks the same question over and over
 * (every view of a cart re-rates it), and parsing and normalizing its half kilobyte cost more
 * than finding the remembered answer. A text is remembered only once its question was answered,
 * so a bad body is parsed and refused every time. The same text gives the same body object
 * (validation changes nothing in a body it has already passed) and the same shipment object,
 * whose question text the rate cache then keeps instead of writing it again.
 */
export class RateQuestions {
  readonly #bodiesByText = new BoundedMap<string, RateRequestBody>(REMEMBERED_TEXTS);
  readonly #textOfNewBody = new WeakMap<object, string>();
  readonly #shipmentOfBody = new WeakMap<object, RateShipment>();

  /** Makes the JSON bodies of `app`'s routes come through this memory. */
  parseJsonBodiesOf(app: FastifyInstance): void {
    const parseJson = jsonTextParser(app);
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser("application/json", { parseAs: "string" }, (request, raw, done) => {
      const text = raw as string; // parseAs "string"
      const known = this.#bodiesByText.get(text);
      if (known) return done(null, known);
      parseJson(request, text, (error, body) => {
        if (typeof body === "object" && body !== null) this.#textOfNewBody.set(body, text);
        done(error, body);
      });
    });
  }

  /** The shipment a validated body asks about: normalized once per remembered text. */
  shipmentOf(body: RateRequestBody): RateShipment {
    let shipment = this.#shipmentOfBody.get(body);
    if (shipment) return shipment;
    const asked = body.shipment;
    shipment = {
      ...asked,
      to_location: normalizeLocation(asked.to_location, "shipment.to_location"),
      from_location: normalizeLocation(asked.from_location, "shipment.from_location"),
      include_services: normalizeServiceIds(asked.include_services),
      parcels: asked.parcels.map((parcel, index) => ({
        ...parcel,
        insured_cents: insuredCentsOf(
          parcel.service_options?.insurance,
          `shipment.parcels[${index}].service_options.insurance`,
        ),
      })),
    };
    this.#shipmentOfBody.set(body, shipment);
    return shipment;
  }

  /** Called once the body's question was answered: from now on its text is known. */
  answered(body: RateRequestBody): void {
    const text = this.#textOfNewBody.get(body);
    if (text === undefined || text.length > LONGEST_REMEMBERED_TEXT) return;
    this.#textOfNewBody.delete(body);
    this.#bodiesByText.set(text, body);
  }
}
