import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultDevelopmentKeyFile, developmentKeyEncryptionKey } from './development-key.ts';
import { KeyEncryptionError } from './key-encryption.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'dev-kek-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `count` processes asking for the key at the same moment; the hex key each one got. */
async function racingProcesses(file: string, count: number): Promise<string[]> {
  const module = path.join(import.meta.dirname, 'development-key.ts');
  const script = `
    import { developmentKeyEncryptionKey } from ${JSON.stringify(module)};
    const start = Number(process.argv[1]);
    while (Date.now() < start) {}
    const { key, created } = developmentKeyEncryptionKey(${JSON.stringify(file)});
    console.log(Buffer.from(key).toString('hex'), created);`;
  const start = Date.now() + 1500;
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--input-type=module', '-e', script, String(start)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  return Promise.all(
    children.map(async (child) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      return out.trim();
    }),
  );
}

describe('the development key-encryption key', () => {
  it('is generated once, 32 random bytes in a file only its owner can read, then reused', () => {
    const file = path.join(dir, '.data', 'dev-key-encryption-key');
    const first = developmentKeyEncryptionKey(file);
    expect(first).toMatchObject({ file, created: true });
    expect(first.key).toHaveLength(32);
    expect(readFileSync(file, 'utf8')).toBe(`${Buffer.from(first.key).toString('hex')}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const again = developmentKeyEncryptionKey(file);
    expect(again).toEqual({ key: first.key, file, created: false });
    // Another checkout gets another key: nothing in the repository decides it.
    expect(developmentKeyEncryptionKey(path.join(dir, 'other')).key).not.toEqual(first.key);
  });

  it('gives every one of many processes starting at once the same key, created by one', async () => {
    const file = path.join(dir, '.data', 'dev-key-encryption-key');
    const results = await racingProcesses(file, 6);
    const keys = new Set(results.map((line) => line.split(' ')[0]));
    expect(keys.size).toBe(1);
    expect(results.filter((line) => line.endsWith(' true'))).toHaveLength(1);
    expect(readFileSync(file, 'utf8').trim()).toBe([...keys][0]);
    // No temporary file is left behind.
    expect(readdirSync(path.dirname(file))).toEqual(['dev-key-encryption-key']);
  }, 20_000);

  it('refuses a file that holds no key, naming it', () => {
    const file = path.join(dir, 'broken');
    writeFileSync(file, 'not a key\n');
    expect(() => developmentKeyEncryptionKey(file)).toThrow(KeyEncryptionError);
    expect(() => developmentKeyEncryptionKey(file)).toThrow(file);
  });

  it('lives in the checkout’s git-ignored .data directory, wherever the process runs', () => {
    const root = path.resolve(import.meta.dirname, '../../../..');
    expect(defaultDevelopmentKeyFile()).toBe(path.join(root, '.data', 'dev-key-encryption-key'));
    expect(readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n')).toContain('.data/');
  });
});
