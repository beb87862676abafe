import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type Write = (...args: unknown[]) => void;

/**
 * A request's logger, made (pino's `child`, with the request id bound) the first time something
 * logs through it. Fastify makes one for every request, and on the earn path nothing logs through
 * it: the request line has a logger of its own (request-log.ts), and a request's logger is used
 * only when something goes wrong. A pino child costs a few µs and several objects per request.
 */
class LazyChildLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get made(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#made?.level ?? this.options?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.made.level = level;
  }

  fatal(...args: unknown[]): void {
    (this.made.fatal as Write)(...args);
  }

  error(...args: unknown[]): void {
    (this.made.error as Write)(...args);
  }

  warn(...args: unknown[]): void {
    (this.made.warn as Write)(...args);
  }

  info(...args: unknown[]): void {
    (this.made.info as Write)(...args);
  }

  debug(...args: unknown[]): void {
    (this.made.debug as Write)(...args);
  }

  trace(...args: unknown[]): void {
    (this.made.trace as Write)(...args);
  }

  silent(...args: unknown[]): void {
    (this.made.silent as Write)(...args);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger is made when first used (LazyChildLogger). */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new LazyChildLogger(logger, bindings, options);
