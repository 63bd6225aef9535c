import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from './request-logger.ts';

/** A pino logger at `level` writing JSON lines into `lines`, counting the children made. */
function parentLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const parent = pino({ level, base: { service: 'api' } }, sink);
  const made = { children: 0 };
  // Children inherit this method from the parent: it must call pino's on whichever it is.
  const pinoProto = Object.getPrototypeOf(parent) as typeof parent;
  parent.child = function (this: typeof parent, ...args: Parameters<typeof parent.child>) {
    made.children += 1;
    return pinoProto.child.apply(this, args);
  } as typeof parent.child;
  return { parent, lines, made };
}

describe('lazyRequestLogger', () => {
  it('makes no pino child for lines below the level, and writes none', () => {
    const { parent, lines, made } = parentLogger('warn');
    const log = lazyRequestLogger(parent, { reqId: 'r-1' }, {});
    log.info({ route: '/x' }, 'request completed');
    log.debug('details');
    expect(log.level).toBe('warn');
    expect(made.children).toBe(0);
    expect(lines).toEqual([]);
  });

  it('writes a line at or above the level with the request id and the parent bindings', () => {
    const { parent, lines, made } = parentLogger('info');
    const log = lazyRequestLogger(parent, { reqId: 'r-2' }, {});
    log.info({ statusCode: 200 }, 'request completed');
    log.error(new Error('boom'), 'request errored');
    expect(made.children).toBe(1);
    expect(lines).toMatchObject([
      { level: 30, reqId: 'r-2', service: 'api', statusCode: 200, msg: 'request completed' },
      { level: 50, reqId: 'r-2', msg: 'request errored', err: { message: 'boom' } },
    ]);
  });

  it("keeps a route's own level (Fastify's logLevel), above or below the service's", () => {
    const quiet = parentLogger('info');
    const health = lazyRequestLogger(quiet.parent, { reqId: 'r-3' }, { level: 'warn' });
    health.info('request completed');
    expect(health.level).toBe('warn');
    expect(quiet.lines).toEqual([]);

    const verbose = parentLogger('warn');
    const traced = lazyRequestLogger(verbose.parent, { reqId: 'r-4' }, { level: 'debug' });
    traced.debug('details');
    expect(verbose.lines).toMatchObject([{ level: 20, reqId: 'r-4', msg: 'details' }]);
  });

  it('follows a level set on it, and makes children of its own', () => {
    const { parent, lines } = parentLogger('warn');
    const log = lazyRequestLogger(parent, { reqId: 'r-5' }, {});
    log.level = 'info';
    log.info('now written');
    log.child({ step: 'inner' }).warn('from a child');
    expect(lines).toMatchObject([
      { level: 30, reqId: 'r-5', msg: 'now written' },
      { level: 40, reqId: 'r-5', step: 'inner', msg: 'from a child' },
    ]);
  });
});
