import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions } from "pino";

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** A logger that hands every call to another one (`target`). */
abstract class DelegatingLogger implements FastifyBaseLogger {
  protected abstract get target(): FastifyBaseLogger;

  get level(): string {
    return this.target.level;
  }

  set level(level: string) {
    this.target.level = level;
  }

  #write(level: Level, args: unknown[]): void {
    (this.target[level] as (...args: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.#write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.#write("error", args);
  }
  warn(...args: unknown[]): void {
    this.#write("warn", args);
  }
  info(...args: unknown[]): void {
    this.#write("info", args);
  }
  debug(...args: unknown[]): void {
    this.#write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.#write("trace", args);
  }
  silent(...args: unknown[]): void {
    this.#write("silent", args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.target.child(bindings, options);
  }
}

/**
 * A request's logger, made only when a handler logs something. Fastify would otherwise build a
 * pino child for every request, which costs more than a whole ping; the one line every request
 * writes names its request id itself.
 */
export class LazyRequestLogger extends DelegatingLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly root: FastifyBaseLogger,
    private readonly bindings: Bindings,
  ) {
    super();
  }

  protected get target(): FastifyBaseLogger {
    this.#child ??= this.root.child(this.bindings);
    return this.#child;
  }

  override get level(): string {
    return this.#child?.level ?? this.root.level;
  }

  override set level(level: string) {
    this.target.level = level;
  }
}

/**
 * The logger Fastify is given: pino's root, whose request children are lazy. Handing it over as
 * the logger itself, rather than through Fastify's `childLoggerFactory`, spares the check Fastify
 * makes of every logger such a factory returns, once per request.
 */
export class HttpLogger extends DelegatingLogger {
  constructor(private readonly root: FastifyBaseLogger) {
    super();
  }

  protected get target(): FastifyBaseLogger {
    return this.root;
  }

  override child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    // Fastify asks for a child with options for itself, and for a plugin or route with its own
    // level or serializers; those children make lazy request loggers in turn.
    if (options && Object.keys(options).length > 0) return new HttpLogger(this.root.child(bindings, options));
    return new LazyRequestLogger(this.root, bindings);
  }
}
