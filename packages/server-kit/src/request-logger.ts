import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino';

// pino's level numbers; `silent` writes nothing.
const LEVEL_VALUES: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

/**
 * `request.log`, whose pino child (with the request id) is made only when a line is written.
 * Fastify makes that child for every request; pino serialises and redacts its bindings at once,
 * which was 3 % of the CPU of `/health/live` in the profile of `pnpm bench`, for a logger most
 * requests never write to (one line per request is written only at `info`, and by the
 * RequestLogController, which asks `level` first).
 */
class LazyRequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #writes(level: string): boolean {
    return (LEVEL_VALUES[level] ?? 0) >= (LEVEL_VALUES[this.level] ?? 0);
  }

  // Each checks the level before it makes the child: below the level, nothing is made.
  // Methods, not arrow functions in fields: those would be seven closures per request.
  trace(...args: unknown[]): void {
    if (this.#writes('trace')) this.#logger().trace(...(args as Parameters<LogFn>));
  }

  debug(...args: unknown[]): void {
    if (this.#writes('debug')) this.#logger().debug(...(args as Parameters<LogFn>));
  }

  info(...args: unknown[]): void {
    if (this.#writes('info')) this.#logger().info(...(args as Parameters<LogFn>));
  }

  warn(...args: unknown[]): void {
    if (this.#writes('warn')) this.#logger().warn(...(args as Parameters<LogFn>));
  }

  error(...args: unknown[]): void {
    if (this.#writes('error')) this.#logger().error(...(args as Parameters<LogFn>));
  }

  fatal(...args: unknown[]): void {
    if (this.#writes('fatal')) this.#logger().fatal(...(args as Parameters<LogFn>));
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: the request logger above instead of an eager pino child. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options);
}
