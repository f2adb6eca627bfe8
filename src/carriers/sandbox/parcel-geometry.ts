/**
 * Measurements of a parcel the way carriers take them: the longest side is the length, girth is
 * twice the other two sides. Side order in the request does not matter.
 */

export interface ParcelDimensions {
  lengthIn: number;
  widthIn: number;
  heightIn: number;
}

/** The three sides, longest first. */
export function sidesLongestFirst(parcel: ParcelDimensions): [number, number, number] {
  const [longest = 0, middle = 0, shortest = 0] = [parcel.lengthIn, parcel.widthIn, parcel.heightIn].sort(
    (a, b) => b - a,
  );
  return [longest, middle, shortest];
}

export function longestSideIn(parcel: ParcelDimensions): number {
  return sidesLongestFirst(parcel)[0];
}

export function secondLongestSideIn(parcel: ParcelDimensions): number {
  return sidesLongestFirst(parcel)[1];
}

/** Length plus girth: longest side + 2 × each of the other two. */
export function lengthPlusGirthIn(parcel: ParcelDimensions): number {
  const [length, width, height] = sidesLongestFirst(parcel);
  return length + 2 * width + 2 * height;
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
