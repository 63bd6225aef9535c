import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logging.ts';

describe('loggerOptions', () => {
  it('redacts credentials wherever a request or a body carries them', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const options = loggerOptions('info') as Exclude<ReturnType<typeof loggerOptions>, boolean>;
    const logger = pino(options as pino.LoggerOptions, sink);
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
});
