import Negotiator from "negotiator";
import de from "./de.js";
import en from "./en.js";
import es from "./es.js";
import fr from "./fr.js";
import type { Messages } from "./messages.js";

export type { Messages } from "./messages.js";

/**
 * The languages the public tracking page is written in, English first: it is the page's language
 * when the reader asks for none of them. A translation is one more catalogue in this folder,
 * named here.
 */
export const CATALOGUES: readonly Messages[] = [en, de, es, fr];

const LANGUAGES = CATALOGUES.map((catalogue) => catalogue.language);

/** The best of our languages for an `Accept-Language` value (q-values honoured), or undefined. */
function bestLanguage(acceptLanguage: string): string | undefined {
  return new Negotiator({ headers: { "accept-language": acceptLanguage } }).language(LANGUAGES);
}

/**
 * The catalogue a reader gets: the `?lang=` they chose when we have it (`es`, `es-MX`), else the
 * best match for their browser's `Accept-Language`, else English.
 */
export function chooseMessages(asked: { lang?: string; acceptLanguage?: string }): Messages {
  const language = (asked.lang && bestLanguage(asked.lang)) || bestLanguage(asked.acceptLanguage ?? "");
  return CATALOGUES.find((catalogue) => catalogue.language === language) ?? en;
}
