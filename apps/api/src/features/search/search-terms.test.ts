import { describe, expect, it } from 'vitest';
import { foldToAscii, searchStringOf } from './search-terms.ts';

describe('foldToAscii', () => {
  it.each([
    ['Münster', 'muenster'],
    ['ÄÖÜ äöü', 'aeoeue aeoeue'],
    ['Straße', 'strasse'],
    ['GROẞE', 'grosse'],
    ['Öffentlichkeitsarbeit Musterstadt', 'oeffentlichkeitsarbeit musterstadt'],
    ['Crème Brûlée', 'creme brulee'],
    ['São Paulo', 'sao paulo'],
    ['Łódź', 'lodz'],
    ['Ærø', 'aero'],
    ['Musterstadt', 'musterstadt'],
    ['12345', '12345'],
    ['', ''],
  ])('%s -> %s', (term, folded) => {
    expect(foldToAscii(term)).toBe(folded);
  });

  it('gives plain ASCII for every Latin letter with a diacritic', () => {
    const latin = 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćčďēęěğīįľńňőřśşšťūůűųźżž';
    expect(foldToAscii(latin)).toMatch(/^[a-z]+$/);
  });
});

describe('searchStringOf', () => {
  it('adds the folded form after each term that differs from it', () => {
    expect(searchStringOf(['Münster'])).toBe('Münster;muenster');
    expect(searchStringOf(['Musterstadt', 'münster'])).toBe(
      'Musterstadt;musterstadt;münster;muenster',
    );
  });

  it('keeps an already folded term once', () => {
    expect(searchStringOf(['muenster', 'Münster'])).toBe('muenster;Münster');
    expect(searchStringOf(['12345', '12345'])).toBe('12345');
  });

  it('leaves out missing and blank terms', () => {
    expect(searchStringOf([null, undefined, '  ', 'Bäckerei'])).toBe('Bäckerei;baeckerei');
    expect(searchStringOf([])).toBe('');
  });

  it('never lets a term split the list', () => {
    expect(searchStringOf(['a;b', 'line\nbreak'])).toBe('a b;line break');
  });
});
