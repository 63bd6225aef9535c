import { NOT_BLANK_PATTERN, trimSpace } from '@foodshare/schemas';
import { describe, expect, it, type Sql } from './test-support/fixtures.ts';

/**
 * The schemas' idea of a blank text must include PostgreSQL's, or a text the schema accepts
 * could violate a CHECK such as messages_body_check (`body ~ '[^[:space:]]'`) and answer 500.
 * PostgreSQL's `[[:space:]]` depends on the collation: checked under the database's default
 * and under every ICU collation a production database might use.
 */
describe('white space of the schemas and of PostgreSQL', () => {
  const notBlank = new RegExp(NOT_BLANK_PATTERN, 'u');

  async function spaceCodePoints(sql: Sql, collation: string | null): Promise<number[]> {
    const text = collation === null ? 'chr(c)' : `chr(c) collate "${collation}"`;
    const rows = await sql<{ c: number }[]>(
      `select c from generate_series(1, 65535) c
        where c not between 55296 and 57343 and ${text} ~ '^[[:space:]]$'`,
    );
    return rows.map((row) => row.c);
  }

  async function collations(sql: Sql): Promise<(string | null)[]> {
    const rows = await sql<{ name: string }[]>(
      `select collname as name from pg_collation where collprovider = 'i' and collname in ('und-x-icu', 'de-x-icu', 'de-DE-x-icu')`,
    );
    return [null, ...rows.map((row) => row.name)];
  }

  it('counts as blank every character PostgreSQL counts as space, under every collation', async ({
    sql,
  }) => {
    const checked = await collations(sql);
    expect(checked.length).toBeGreaterThan(1);
    for (const collation of checked) {
      const spaces = await spaceCodePoints(sql, collation);
      expect(spaces.length).toBeGreaterThan(5);
      const missed = spaces.filter((c) => {
        const character = String.fromCodePoint(c);
        return notBlank.test(character) || trimSpace(`${character}x${character}`) !== 'x';
      });
      expect(missed, `collation ${collation ?? 'default'}`).toEqual([]);
    }
  });

  it('counts as blank every character of JavaScript `\\s`', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const character = String.fromCharCode(c);
      if (!/\s/.test(character)) continue;
      expect(notBlank.test(character), `U+${c.toString(16)}`).toBe(false);
      expect(trimSpace(`${character}x${character}`)).toBe('x');
    }
  });

  it('keeps inner white space and every other character', () => {
    expect(trimSpace(' \u0085a \u001c b\u3000')).toBe('a \u001c b');
    expect(trimSpace('\u200bx\u200b')).toBe('\u200bx\u200b');
    expect(trimSpace(` ${' '.repeat(100_000)}a${' '.repeat(100_000)}b `)).toHaveLength(100_002);
    expect(notBlank.test('\u0085\u00a0a')).toBe(true);
  });
});
