import AjvCompiler from "@fastify/ajv-compiler";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import type { FastifyServerOptions } from "fastify";

type RouteDefinition = Parameters<ReturnType<ReturnType<typeof AjvCompiler>>>[0];

/**
 * Fastify's own compilers (Ajv for request parts, fast-json-stringify for answers), each schema
 * compiled on its route's first use instead of when the server starts: compiling every route's
 * schemas was most of a start-up's CPU (docs/performance.md, "Start-up"), and a process answers
 * only a few of its routes. What a compiled function does is unchanged; `compileAll` compiles
 * whatever is still waiting, so a test can prove every schema compiles.
 */
export interface LazyCompilers {
  compilersFactory: NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"];
  compileAll(): void;
}

type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;

export function lazyCompilers(): LazyCompilers {
  const waiting = new Set<() => void>();
  const buildAjv = AjvCompiler();
  const buildStringify = SerializerSelector();

  function lazy<F extends (...args: never[]) => unknown>(compile: () => F): { get(): F } {
    let compiled: F | undefined;
    const now = () => {
      compiled ??= compile();
      waiting.delete(now);
    };
    waiting.add(now);
    return {
      get() {
        if (compiled === undefined) now();
        return compiled as F;
      },
    };
  }

  return {
    compilersFactory: {
      buildValidator(externalSchemas, options) {
        // Making the Ajv instance compiles its meta-schema to check the shared schemas: made on first use too.
        const compiler = lazy(() => buildAjv(externalSchemas as never, options as never));
        return (route: RouteDefinition) => {
          const target = lazy(() => compiler.get()(route) as unknown as Validate);
          const validate: Validate & { schemaEnv?: unknown } = (data, context) => {
            const fn = target.get();
            const valid = fn(data, context);
            validate.errors = fn.errors;
            return valid;
          };
          // Fastify hands an Ajv function (one with `schemaEnv`) the parent object, so that coercion
          // can replace a whole request part; every function this wraps is one.
          validate.schemaEnv = true;
          // Fastify's type wants Ajv's own function type; what it calls is the signature above.
          return validate as never;
        };
      },
      buildSerializer(externalSchemas, options) {
        const compile = buildStringify(externalSchemas as never, options as never);
        return (route: Parameters<typeof compile>[0]) => {
          const target = lazy(() => compile(route) as Serialize);
          return (data: unknown) => target.get()(data);
        };
      },
    },
    compileAll() {
      for (const compile of [...waiting]) compile();
    },
  };
}
