import { describe, expect, it } from "vitest";
import { CATALOGUES, chooseMessages } from "../../../src/http/routes/public-tracking/messages/index.js";

const chosen = (asked: { lang?: string; acceptLanguage?: string }) => chooseMessages(asked).language;

describe("the public tracking page's language", () => {
  it("is English when nothing is asked, or nothing we have", () => {
    expect(chosen({})).toBe("en");
    expect(chosen({ acceptLanguage: "" })).toBe("en");
    expect(chosen({ acceptLanguage: "ja, zh-CN;q=0.8" })).toBe("en");
    expect(chosen({ acceptLanguage: "*" })).toBe("en");
    expect(chosen({ acceptLanguage: "not a header ;;; q=" })).toBe("en");
  });

  it("follows Accept-Language, a regional tag matching its language", () => {
    expect(chosen({ acceptLanguage: "es" })).toBe("es");
    expect(chosen({ acceptLanguage: "fr-CA,fr;q=0.9" })).toBe("fr");
    expect(chosen({ acceptLanguage: "DE-at" })).toBe("de");
    expect(chosen({ acceptLanguage: "ja, es-MX;q=0.5" })).toBe("es");
  });

  it("honours q-values, not the order the header lists them in", () => {
    expect(chosen({ acceptLanguage: "en;q=0.4, de;q=0.9, fr;q=0.7" })).toBe("de");
    expect(chosen({ acceptLanguage: "fr;q=0.2, es" })).toBe("es");
    // q=0 means "not this one".
    expect(chosen({ acceptLanguage: "de;q=0, ja" })).toBe("en");
    expect(chosen({ acceptLanguage: "en;q=0, fr;q=0.1" })).toBe("fr");
  });

  it("takes ?lang= over the header when we have that language, and ignores it otherwise", () => {
    expect(chosen({ lang: "fr", acceptLanguage: "de" })).toBe("fr");
    expect(chosen({ lang: "es-MX", acceptLanguage: "de" })).toBe("es");
    expect(chosen({ lang: "xx", acceptLanguage: "de" })).toBe("de");
    expect(chosen({ lang: "", acceptLanguage: "de" })).toBe("de");
  });

  it("offers English first and every catalogue under its own language", () => {
    expect(CATALOGUES[0]?.language).toBe("en");
    const languages = CATALOGUES.map((catalogue) => catalogue.language);
    expect(new Set(languages).size).toBe(languages.length);
    for (const catalogue of CATALOGUES) {
      expect(Intl.DateTimeFormat.supportedLocalesOf([catalogue.language])).toEqual([catalogue.language]);
    }
  });
});
