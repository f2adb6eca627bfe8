/**
 * Measurements of a parcel the way carriers take them: the longest side is the length, girth is
 * twice the other two sides. Side order in the request does not matter.
 */

export interface ParcelDimensions {
  lengthIn: number;
  widthIn: number;
  heightIn: number;
}

/** The three sides, longest first (compared directly: this runs for every service of every rate). */
export function sidesLongestFirst(parcel: ParcelDimensions): [number, number, number] {
  let [a, b, c] = [parcel.lengthIn, parcel.widthIn, parcel.heightIn];
  if (a < b) [a, b] = [b, a];
  if (b < c) [b, c] = [c, b];
  if (a < b) [a, b] = [b, a];
  return [a, b, c];
}

export function longestSideIn(parcel: ParcelDimensions): number {
  return Math.max(parcel.lengthIn, parcel.widthIn, parcel.heightIn);
}

export function secondLongestSideIn(parcel: ParcelDimensions): number {
  return sidesLongestFirst(parcel)[1];
}

/** Length plus girth: longest side + 2 × each of the other two. */
export function lengthPlusGirthIn(parcel: ParcelDimensions): number {
  return 2 * (parcel.lengthIn + parcel.widthIn + parcel.heightIn) - longestSideIn(parcel);
}

export function cubicInches(parcel: ParcelDimensions): number {
  return parcel.lengthIn * parcel.widthIn * parcel.heightIn;
}

/** Each side rounded to the nearest whole inch (half an inch up), as carriers measure for DIM weight. */
export function roundedToNearestInch(parcel: ParcelDimensions): ParcelDimensions {
  return {
    lengthIn: Math.round(parcel.lengthIn),
    widthIn: Math.round(parcel.widthIn),
    heightIn: Math.round(parcel.heightIn),
  };
}
