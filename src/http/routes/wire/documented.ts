import { type TObject, type TSchema, Type } from "typebox";

/** An object with exactly the documented keys of `Keys`, each with a value or null. */
export type Documented<Keys extends readonly string[]> = { [Key in Keys[number]]: unknown };

/**
 * Every key of `keys`, in eHub's documented order, with its value from `values` or null: a wire
 * object never lacks a documented key, whichever endpoint answers with it.
 */
export function documented<const Keys extends readonly string[]>(
  keys: Keys,
  values: { readonly [Key in Keys[number]]?: unknown },
): Documented<Keys> {
  const shaped: Record<string, unknown> = {};
  for (const key of keys) shaped[key] = (values as Record<string, unknown>)[key] ?? null;
  return shaped as Documented<Keys>;
}

const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

/**
 * The response schema of a wire object from the same key list: every documented key is required
 * and may be null (a string unless `types` says otherwise); `extras` are Porter's own keys.
 */
export function documentedSchema<const Keys extends readonly string[]>(
  keys: Keys,
  types: { readonly [Key in Keys[number]]?: TSchema },
  extras: Readonly<Record<string, TSchema>> = {},
  options: { $id?: string; description?: string } = {},
): TObject {
  const byKey = types as Readonly<Record<string, TSchema | undefined>>;
  const properties: Record<string, TSchema> = {};
  for (const key of keys) properties[key] = nullable(byKey[key] ?? Type.String());
  return Type.Object({ ...properties, ...extras }, options);
}
