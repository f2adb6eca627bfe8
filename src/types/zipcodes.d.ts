/** The part of the untyped `zipcodes` package (CommonJS) that Porter uses. */
declare module "zipcodes" {
  namespace zipcodes {
    interface ZipCodeRecord {
      zip: string;
      /** 0 (with longitude 0) where the source data has no coordinates. */
      latitude: number;
      longitude: number;
      city: string;
      /** Two-letter state, territory or military (AA/AE/AP) code. */
      state: string;
      country: "US" | "CA";
    }

    /** US ZIP5s and Canadian postal codes, keyed by code. */
    const codes: Readonly<Record<string, ZipCodeRecord | undefined>>;
  }

  export = zipcodes;
}
