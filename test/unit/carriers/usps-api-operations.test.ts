import { describe, expect, it } from "vitest";
import { findService } from "../../../src/carriers/registry.js";
import { addressQuery, addressSearch, addressVerdict } from "../../../src/carriers/usps/api/usps-addresses.js";
import {
  internationalBaseRatesQuery,
  uspsInternationalProduct,
} from "../../../src/carriers/usps/api/usps-international.js";
import {
  customsContents,
  internationalAddress,
  internationalLabelRequest,
  isInternationalNumber,
} from "../../../src/carriers/usps/api/usps-international-labels.js";
import {
  labelAddress,
  labelCostLines,
  labelRefusal,
  labelRequest,
  paymentAuthorizationRequest,
  readLabelAnswer,
  returnLabelRequest,
} from "../../../src/carriers/usps/api/usps-labels.js";
import { packageLocation, schedulePickupRequest } from "../../../src/carriers/usps/api/usps-pickup-requests.js";
import { uspsProduct } from "../../../src/carriers/usps/api/usps-products.js";
import { readScanFormAnswer, scanFormRequest } from "../../../src/carriers/usps/api/usps-scan-forms.js";
import { eventInstant, trackingReport, trackingStatusOf } from "../../../src/carriers/usps/api/usps-tracking.js";
import { uspsBodyRefusals } from "../../contracts/usps-rules.js";

const parcel = { lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" };
const from = {
  first_name: "Sam",
  last_name: "Wilson",
  company: "Acme Goods",
  address1: "45 L St SW",
  city: "Washington",
  state: "dc",
  country: "US",
  postal_code: "20024",
};
const to = {
  first_name: "Nick",
  last_name: "Fury",
  address1: "2700 S Jefferson Ave",
  address2: "STE 150",
  city: "St. Louis",
  state: "MO",
  country: "US",
  postal_code: "63104-2351",
};
const payer = { crid: "56982563", mid: "903476223", epsAccount: "1000405525", permitNumber: null, permitZip: null };

describe("the payment authorization a USPS label needs", () => {
  it("names the connection's CRID as payer (its EPS account) and label owner (its MID)", () => {
    expect(paymentAuthorizationRequest(payer)).toEqual({
      roles: [
        {
          roleName: "PAYER",
          CRID: "56982563",
          MID: "903476223",
          manifestMID: "903476223",
          accountType: "EPS",
          accountNumber: "1000405525",
        },
        { roleName: "LABEL_OWNER", CRID: "56982563", MID: "903476223", manifestMID: "903476223" },
      ],
    });
  });

  it("pays from a permit when there is no EPS account", () => {
    const request = paymentAuthorizationRequest({
      ...payer,
      epsAccount: null,
      permitNumber: "1234",
      permitZip: "20260",
    });
    expect(request.roles[0]).toMatchObject({ accountType: "PERMIT", permitNumber: "1234", permitZIP: "20260" });
  });

  it("says what is missing", () => {
    expect(() => paymentAuthorizationRequest({ ...payer, mid: null })).toThrow(/crid and mid/);
    expect(() => paymentAuthorizationRequest({ ...payer, epsAccount: null })).toThrow(/eps_account/);
  });
});

describe("a USPS label request", () => {
  const product = uspsProduct(findService(1172)!, parcel);
  if ("refusal" in product) throw new Error(product.refusal);
  const order = {
    from,
    to,
    product,
    parcel,
    format: "zpl" as const,
    size: "4x6",
    mailingDate: "2026-11-27",
    parcelNumber: 1,
    parcelCount: 1,
    reference: "order 1001",
  };

  it("asks for the label file in the format asked, with the rated product, and passes the stand-in's checks", async () => {
    const request = labelRequest(order);
    expect(request.imageInfo).toEqual({ imageType: "ZPL203DPI", labelType: "4X6LABEL", receiptOption: "NONE" });
    expect(request.packageDescription).toMatchObject({
      mailClass: "USPS_GROUND_ADVANTAGE",
      rateIndicator: "SP",
      processingCategory: "MACHINABLE",
      weight: 1.5,
      mailingDate: "2026-11-27",
      customerReference: [{ referenceNumber: "order 1001", printReferenceNumber: true }],
    });
    expect(request.toAddress).toMatchObject({ ZIPCode: "63104", ZIPPlus4: "2351", secondaryAddress: "STE 150" });
    expect(await uspsBodyRefusals("POST", "/labels/v3/label", request)).toEqual([]);
  });

  it("numbers the parcels of a multi-parcel shipment", () => {
    expect(labelRequest({ ...order, parcelNumber: 2, parcelCount: 3 }).imageInfo).toMatchObject({
      packageNumber: 2,
      totalPackages: 3,
    });
  });

  it("puts a name or a firm on every address", () => {
    expect(labelAddress(from)).toMatchObject({ firstName: "Sam", lastName: "Wilson", firm: "Acme Goods", state: "DC" });
    expect(labelAddress({ ...to, last_name: null })).toMatchObject({ firm: "Nick" });
    expect(labelAddress({ ...to, last_name: null })).not.toHaveProperty("firstName");
  });

  it("refuses the files USPS does not make, naming those it does", () => {
    expect(labelRefusal("pdf", "4x6")).toBeUndefined();
    expect(labelRefusal("epl2", "4x6")).toBeUndefined();
    expect(labelRefusal("pdf", "8.5x11")).toMatch(/USPS makes labels in the sizes 4x6; not 8.5x11/);
    expect(labelRefusal("svg", "4x6")).toMatch(/pdf, png, jpeg, gif, tiff, zpl, epl2; not svg/);
  });
});

describe("a USPS return label request", () => {
  const order = (serviceId: number, packageType = "parcel") => {
    const product = uspsProduct(findService(serviceId)!, { ...parcel, packageType });
    if ("refusal" in product) throw new Error(product.refusal);
    // A return travels from the customer (`to` above) back to the merchant (`from` above).
    return {
      from: to,
      to: from,
      product,
      parcel: { ...parcel, packageType },
      format: "pdf" as const,
      size: "4x6",
      mailingDate: "2026-11-27",
      parcelNumber: 1,
      parcelCount: 1,
      reference: "return 1001",
    };
  };

  it.each([
    [1172, "parcel", "USPS_GROUND_ADVANTAGE_RETURN_SERVICE", "SP"],
    [684, "parcel", "PRIORITY_MAIL_RETURN_SERVICE", "SP"],
    [684, "small_flat_rate_box", "PRIORITY_MAIL_RETURN_SERVICE", "FS"],
    [685, "parcel", "PRIORITY_MAIL_EXPRESS_RETURN_SERVICE", "PA"],
  ])(
    "service %i in %s packaging is the return service %s (%s), and passes USPS's spec",
    async (serviceId, packageType, mailClass, rateIndicator) => {
      const request = returnLabelRequest(order(serviceId, packageType));
      if ("refusal" in request) throw new Error(request.refusal);
      expect(request.packageDescription).toMatchObject({ mailClass, rateIndicator });
      expect(request.packageDescription).not.toHaveProperty("destinationEntryFacilityType");
      expect(request.packageDescription).not.toHaveProperty("mailingDate");
      expect(request.fromAddress).toMatchObject({ ZIPCode: "63104", firstName: "Nick" });
      expect(request.toAddress).toMatchObject({ ZIPCode: "20024", firm: "Acme Goods" });
      expect(await uspsBodyRefusals("POST", "/labels/v3/return-label", request)).toEqual([]);
    },
  );

  it("carries insurance as the outbound label does", async () => {
    const request = returnLabelRequest({ ...order(684), parcel: { ...parcel, insuredCents: 25_000 } });
    if ("refusal" in request) throw new Error(request.refusal);
    expect(request.packageDescription).toMatchObject({ extraServices: [930], packageOptions: { packageValue: 250 } });
    expect(await uspsBodyRefusals("POST", "/labels/v3/return-label", request)).toEqual([]);
  });

  it.each([686, 688])("refuses service %i, which has no USPS return service", (serviceId) => {
    expect(returnLabelRequest(order(serviceId))).toEqual({
      refusal: expect.stringMatching(/return labels for Ground Advantage/),
    });
  });

  it("reads the return label answer, vendor JSON and multipart", () => {
    const metadata = { trackingNumber: "9202090109769900012345", postage: 9.35 };
    const pdf = Buffer.from("%PDF-1.7 return label");
    const vendor = readLabelAnswer(
      "application/vnd.usps.labels+json",
      Buffer.from(JSON.stringify({ ...metadata, returnLabelImage: pdf.toString("base64") })),
    );
    expect(vendor.image.equals(pdf)).toBe(true);
    expect(vendor.metadata).not.toHaveProperty("returnLabelImage");
    const b = "B0UND";
    const multipart = readLabelAnswer(
      `multipart/form-data; boundary=${b}`,
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="returnLabelMetadata"\r\n\r\n${JSON.stringify(metadata)}\r\n` +
          `--${b}\r\nContent-Disposition: form-data; name="returnLabelImage"\r\n\r\n${pdf.toString("base64")}\r\n--${b}--\r\n`,
      ),
    );
    expect(multipart.image.equals(pdf)).toBe(true);
    expect(multipart.metadata.trackingNumber).toBe(metadata.trackingNumber);
  });
});

describe("reading USPS's label answer", () => {
  const metadata = {
    trackingNumber: "9400111000000000000015",
    routingInformation: "42063104",
    postage: 11.1,
    fees: [{ name: "Nonstandard Length > 22", price: 4 }],
    extraServices: [{ name: "USPS Tracking", price: 0 }],
  };
  const pdf = Buffer.from("%PDF-1.7 label");

  it("reads the vendor JSON answer", () => {
    const body = Buffer.from(JSON.stringify({ ...metadata, labelImage: pdf.toString("base64") }));
    const answer = readLabelAnswer("application/vnd.usps.labels+json", body);
    expect(answer.image.equals(pdf)).toBe(true);
    expect(answer.metadata).toMatchObject({ trackingNumber: metadata.trackingNumber, postage: 11.1 });
    expect(answer.metadata).not.toHaveProperty("labelImage");
  });

  it("reads the multipart answer, its image part base64 whatever its headers say", () => {
    const b = "B0UND";
    const body = Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="labelMetadata"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(metadata)}\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="labelImage"; filename="label.pdf"\r\nContent-Type: application/pdf\r\n\r\n${pdf.toString("base64")}\r\n--${b}--\r\n`,
    );
    const answer = readLabelAnswer(`multipart/form-data; boundary="${b}"`, body);
    expect(answer.image.equals(pdf)).toBe(true);
    expect(answer.metadata.routingInformation).toBe("42063104");
  });

  it("refuses an answer without a tracking number or an image", () => {
    expect(() => readLabelAnswer("application/json", Buffer.from("{}"))).toThrow(/tracking number/);
    expect(() => readLabelAnswer("application/json", Buffer.from(JSON.stringify(metadata)))).toThrow(/label image/);
  });

  it("prices the label from its postage and each fee USPS charged, in cents", () => {
    expect(labelCostLines(metadata)).toEqual([
      { kind: "base", description: "Postage", amountCents: 1110 },
      { kind: "nonstandard_length_22", description: "Nonstandard Length > 22", amountCents: 400 },
    ]);
  });
});

describe("USPS tracking as Porter's events", () => {
  it("maps Pub 199 event codes to Porter statuses", () => {
    expect(trackingStatusOf("GX")).toBe("pre_transit");
    expect(trackingStatusOf("03")).toBe("in_transit");
    expect(trackingStatusOf("OF")).toBe("out_for_delivery");
    expect(trackingStatusOf("16")).toBe("available_for_pickup");
    expect(trackingStatusOf("01")).toBe("delivered");
    expect(trackingStatusOf("55")).toBe("exception");
    expect(trackingStatusOf("09")).toBe("returned");
    expect(trackingStatusOf("ZZ")).toBe("in_transit");
  });

  it("reads the event's instant from GMT, else from local time and its offset", () => {
    expect(eventInstant({ GMTTimestamp: "2024-11-18T16:10:00Z" })?.toISOString()).toBe("2024-11-18T16:10:00.000Z");
    expect(eventInstant({ eventTimestamp: "2024-11-18T11:10:00", GMTOffset: "-5:00" })?.toISOString()).toBe(
      "2024-11-18T16:10:00.000Z",
    );
    expect(eventInstant({})).toBeUndefined();
  });

  it("turns USPS's newest-first history into numbered events, oldest first", () => {
    const report = trackingReport({
      expectedDeliveryTimeStamp: "2024-11-22T20:00:00Z",
      trackingEvents: [
        {
          eventType: "USPS in possession of item",
          eventCode: "03",
          GMTTimestamp: "2024-11-18T16:10:00Z",
          eventCity: "JAMAICA",
          eventState: "NY",
          eventZIP: "11430",
        },
        {
          eventType: "Shipping Label Created, USPS Awaiting Item",
          eventCode: "GX",
          GMTTimestamp: "2024-11-15T16:32:00Z",
          eventCity: "SPRINGFIELD GARDENS",
          eventState: "NY",
        },
      ],
    });
    expect(report.estimatedDeliveryDate).toBe("2024-11-22");
    expect(report.events.map((e) => [e.sequence, e.code, e.status])).toEqual([
      [1, "GX", "pre_transit"],
      [2, "03", "in_transit"],
    ]);
    expect(report.events[1]).toMatchObject({ city: "JAMAICA", state: "NY", postalCode: "11430", country: "US" });
  });
});

describe("USPS address validation", () => {
  it("asks with the street, state, city and ZIP", () => {
    const query = addressQuery(to);
    expect(query).toEqual({
      streetAddress: "2700 S Jefferson Ave",
      secondaryAddress: "STE 150",
      city: "St. Louis",
      state: "MO",
      ZIPCode: "63104",
      ZIPPlus4: "2351",
    });
    expect(addressSearch(query)).toContain("streetAddress=2700+S+Jefferson+Ave");
  });

  it("takes USPS's standardized address; an unconfirmed unit is a reason, an unconfirmed point invalid", () => {
    const answer = {
      address: {
        streetAddress: "2700 S JEFFERSON AVE",
        city: "SAINT LOUIS",
        state: "MO",
        ZIPCode: "63104",
        ZIPPlus4: "2351",
      },
      additionalInfo: { DPVConfirmation: "D" as const, business: "Y" as const },
    };
    const verdict = addressVerdict(to, answer);
    expect(verdict).toMatchObject({ valid: true, residential: false });
    expect(verdict.address).toMatchObject({
      address1: "2700 S JEFFERSON AVE",
      city: "SAINT LOUIS",
      postal_code: "63104-2351",
    });
    expect(verdict.reasons[0]).toMatch(/apartment or suite number is missing/);
    expect(addressVerdict(to, { ...answer, additionalInfo: { DPVConfirmation: "N" } }).valid).toBe(false);
  });
});

describe("a USPS carrier pickup request", () => {
  const request = {
    location: { ...from, phone: "+1 (202) 555-0143", email: "dock@acme.test" },
    pickupDate: "2026-11-27",
    packageCount: 3,
    weightOz: 50,
    serial: 1,
    locationDetail: "Side door by the loading dock",
    specialInstructions: "Ring twice",
    shipments: [],
    now: new Date("2026-11-26T15:00:00Z"),
  };

  it("books the parcels with a contact, the weight in pounds and where they wait, passing the stand-in's checks", async () => {
    const body = schedulePickupRequest(request);
    expect(body).toMatchObject({
      pickupDate: "2026-11-27",
      packages: [{ packageType: "OTHER", packageCount: 3 }],
      estimatedWeight: 3.2,
      pickupLocation: { packageLocation: "SIDE_DOOR", specialInstructions: "Ring twice" },
    });
    expect(body.pickupAddress).toMatchObject({
      firstName: "Sam",
      lastName: "Wilson",
      contact: [{ email: "dock@acme.test" }, { cellNumber: "2025550143" }],
    });
    expect(await uspsBodyRefusals("POST", "/pickup/v3/carrier-pickup", body)).toEqual([]);
  });

  it("keeps a location USPS has no word for in the instructions", () => {
    expect(packageLocation("garage")).toBe("OTHER");
    expect(schedulePickupRequest({ ...request, locationDetail: "garage" }).pickupLocation.specialInstructions).toBe(
      "garage. Ring twice",
    );
  });
});

describe("a USPS SCAN form", () => {
  it("lists the labels handed over together and passes the stand-in's checks", async () => {
    const body = scanFormRequest({
      mailingDate: "2026-11-27",
      originPostalCode: "20024-1234",
      from,
      trackingNumbers: ["9400111000000000000015"],
    });
    expect(body).toMatchObject({
      form: "5630",
      entryFacilityZIPCode: "20024",
      shipment: { trackingNumbers: ["9400111000000000000015"] },
    });
    expect(await uspsBodyRefusals("POST", "/scan-forms/v3/scan-form", body)).toEqual([]);
  });

  it("reads the EFN from the answer, and no document from an image that is not a PDF or TIFF", () => {
    const body = Buffer.from(JSON.stringify({ manifestNumber: "9275011000000000000019", SCANFormImage: "JVBE" }));
    const answer = readScanFormAnswer("application/vnd.usps.labels+json", body);
    expect(answer.metadata.manifestNumber).toBe("9275011000000000000019");
    expect(answer.document).toBeUndefined();
    expect(() => readScanFormAnswer("application/json", Buffer.from("{}"))).toThrow(/manifest number/);
  });

  it("keeps USPS's SCAN form image from the multipart answer and from the vendor JSON", () => {
    const pdf = Buffer.from("%PDF-1.4\n% form\n%%EOF\n", "latin1");
    const tiff = Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0x01]);
    const multipart = [
      '--b1\r\nContent-Disposition: form-data; name="SCANFormMetaData"\r\n\r\n',
      JSON.stringify({ manifestNumber: "9275011000000000000019" }),
      '\r\n--b1\r\nContent-Disposition: form-data; name="SCANFormImage"; filename="SCANForm.pdf"\r\n\r\n',
      pdf.toString("base64"),
      "\r\n--b1--\r\n",
    ].join("");
    const fromParts = readScanFormAnswer('multipart/form-data; boundary="b1"', Buffer.from(multipart));
    expect(fromParts.metadata.manifestNumber).toBe("9275011000000000000019");
    expect(fromParts.document).toEqual({ bytes: pdf, format: "pdf" });
    const vendor = Buffer.from(
      JSON.stringify({ manifestNumber: "9275011000000000000019", SCANFormImage: tiff.toString("base64") }),
    );
    const fromJson = readScanFormAnswer("application/vnd.usps.labels+json", vendor);
    expect(fromJson.document).toEqual({ bytes: tiff, format: "tiff" });
    expect(fromJson.metadata).not.toHaveProperty("SCANFormImage");
  });
});

describe("USPS international prices", () => {
  it.each([
    [690, "parcel", "FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE", "SP"],
    [691, "parcel", "PRIORITY_MAIL_INTERNATIONAL", "SP"],
    [691, "medium_flat_rate_box", "PRIORITY_MAIL_INTERNATIONAL", "FB"],
    [692, "parcel", "PRIORITY_MAIL_EXPRESS_INTERNATIONAL", "PA"],
    [692, "flat_rate_envelope", "PRIORITY_MAIL_EXPRESS_INTERNATIONAL", "E4"],
  ])("service %i in %s is %s, rate indicator %s", (id, packageType, mailClass, rateIndicator) => {
    expect(uspsInternationalProduct(findService(id)!, { ...parcel, packageType })).toMatchObject({
      mailClass,
      rateIndicator,
    });
  });

  it("refuses packaging without an indicator abroad", () => {
    expect(
      uspsInternationalProduct(findService(692)!, { ...parcel, packageType: "flat_rate_padded_envelope" }),
    ).toHaveProperty("refusal");
  });

  it("asks by destination country and postal code, passing the stand-in's checks", async () => {
    const product = uspsInternationalProduct(findService(691)!, parcel);
    if ("refusal" in product) throw new Error(product.refusal);
    const query = internationalBaseRatesQuery(
      product,
      parcel,
      "90035",
      { country: "ca", postal_code: "M5V 2T6" },
      "1000405525",
    );
    expect(query).toMatchObject({
      originZIPCode: "90035",
      destinationCountryCode: "CA",
      foreignPostalCode: "M5V 2T6",
      weight: 1.5,
      accountType: "EPS",
    });
    expect(await uspsBodyRefusals("POST", "/international-prices/v3/base-rates/search", query)).toEqual([]);
  });
});

describe("a USPS international label request", () => {
  const toronto = {
    first_name: "Jo",
    last_name: "Tremblay",
    address1: "1 Queen St W",
    city: "Toronto",
    state: "ON",
    country: "ca",
    postal_code: "M5H 2N2",
    phone: "+1 416 555 0100",
  };
  const contents = {
    reference: "order 1002",
    items: [
      {
        description: "Cotton T-shirt",
        quantity: 2,
        weightOz: 12,
        valueCents: 2500,
        countryOfOrigin: "us",
        hsTariffCode: "6109.10",
        contentType: "merchandise",
        eelPfc: "NOEEI 30.37(a)",
      },
    ],
  };

  it("writes the address abroad by province, postal code, country name and country code", () => {
    expect(internationalAddress(toronto)).toEqual({
      streetAddress: "1 Queen St W",
      city: "Toronto",
      province: "ON",
      postalCode: "M5H 2N2",
      country: "Canada",
      countryISOAlpha2Code: "CA",
      firstName: "Jo",
      lastName: "Tremblay",
      phone: "+14165550100",
    });
  });

  it("carries the customs items, each line's whole value in dollars and weight in pounds, and passes the stand-in's checks", async () => {
    const product = uspsInternationalProduct(findService(691)!, parcel);
    if ("refusal" in product) throw new Error(product.refusal);
    const request = internationalLabelRequest({
      from,
      to: toronto,
      product,
      parcel,
      contents,
      format: "pdf",
      mailingDate: "2026-11-27",
    });
    if ("refusal" in request) throw new Error(request.refusal);
    expect(request.customsForm).toEqual({
      customsContentType: "MERCHANDISE",
      AESITN: "NOEEI 30.37(a)",
      contents: [
        {
          itemDescription: "Cotton T-shirt",
          itemQuantity: 2,
          itemTotalValue: 25,
          itemTotalWeight: 0.75,
          weightUOM: "lb",
          countryofOrigin: "US",
          HSTariffNumber: "610910",
        },
      ],
    });
    expect(request.packageDescription).toMatchObject({ mailClass: "PRIORITY_MAIL_INTERNATIONAL", rateIndicator: "SP" });
    expect(await uspsBodyRefusals("POST", "/international-labels/v3/international-label", request)).toEqual([]);
  });

  it("says what the customs form lacks", () => {
    expect(customsContents(undefined)).toHaveProperty("refusal");
    const product = uspsInternationalProduct(findService(691)!, parcel);
    if ("refusal" in product) throw new Error(product.refusal);
    const unfiled = { reference: null, items: [{ ...contents.items[0]!, eelPfc: null }] };
    expect(
      internationalLabelRequest({
        from,
        to: toronto,
        product,
        parcel,
        contents: unfiled,
        format: "pdf",
        mailingDate: "2026-11-27",
      }),
    ).toEqual({ refusal: expect.stringMatching(/eel_pfc/) });
    expect(
      customsContents({ reference: null, items: [{ ...contents.items[0]!, countryOfOrigin: null }] }),
    ).toHaveProperty("refusal");
  });

  it("tells S10 international numbers from domestic ones", () => {
    expect(isInternationalNumber("CP000000015US")).toBe(true);
    expect(isInternationalNumber("9400111000000000000015")).toBe(false);
  });
});
