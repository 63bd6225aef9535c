import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { type LogFormat, logFormat, loggerOptions } from './logging.ts';

/** A pino logger with our options that writes into `lines`. */
function loggerInto(lines: string[], format: LogFormat) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const options = loggerOptions({ service: 'api', level: 'info', format }, sink) as Exclude<
    ReturnType<typeof loggerOptions>,
    boolean
  >;
  // The pretty format brings its own stream, writing into the sink.
  return pino(options as pino.LoggerOptions, options.stream ?? sink);
}

describe('loggerOptions', () => {
  it('redacts credentials wherever a request or a body carries them', () => {
    const lines: string[] = [];
    const logger = loggerInto(lines, 'json');
    logger.info(
      {
        req: {
          headers: {
            authorization: 'Bearer eyJsecret',
            cookie: 'fs_session=secret-session',
            'x-csrf-token': 'secret-csrf',
          },
        },
        res: { headers: { 'set-cookie': 'fs_session=secret-new' } },
        password: 'secret-password',
        body: { password: 'secret-nested', refresh_token: 'secret-refresh' },
      },
      'request',
    );
    const line = lines.join('');
    expect(line).toContain('[redacted]');
    expect(line).not.toMatch(/secret/);
  });

  it('names the service in every JSON line', () => {
    const lines: string[] = [];
    loggerInto(lines, 'json').warn('disk almost full');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      service: 'api',
      level: 40,
      msg: 'disk almost full',
    });
  });

  it('writes a request as one readable line with the service, and other entries likewise', () => {
    const lines: string[] = [];
    const logger = loggerInto(lines, 'pretty');
    logger.info(
      { reqId: 'req-1', method: 'GET', url: '/api/x', statusCode: 200, responseTime: 1.5 },
      'request completed',
    );
    logger.warn({ file: '.data/key' }, 'a development key');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*\[api\] GET \/api\/x 200 1\.5 ms.*req-1/,
    );
    expect(lines[1]).toMatch(/WARN.*\[api\] a development key.*\.data\/key/);
    expect(lines.join('\n')).not.toMatch(/"time"|hostname/);
    // No colours when writing into a stream rather than a terminal.
    expect(lines.join('\n')).not.toContain(String.fromCharCode(27));
  });
});

describe('logFormat', () => {
  it.each([
    [{ NODE_ENV: 'development' }, true, 'pretty'],
    [{ NODE_ENV: 'test' }, true, 'pretty'],
    [{ NODE_ENV: 'development' }, false, 'json'],
    [{ NODE_ENV: 'production' }, true, 'json'],
    [{ NODE_ENV: 'production', LOG_FORMAT: 'pretty' as const }, false, 'pretty'],
    [{ NODE_ENV: 'development', LOG_FORMAT: 'json' as const }, true, 'json'],
  ])('%o on a terminal: %s gives %s', (settings, terminal, expected) => {
    expect(logFormat(settings, terminal)).toBe(expected);
  });
});
