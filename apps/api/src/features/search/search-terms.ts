// German transliteration first (Münster -> muenster, as German speakers type it without
// umlauts), then every other accent is dropped after canonical decomposition (é -> e).
const GERMAN: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

// Letters that carry their stroke or ligature in the code point itself, so NFD leaves them whole.
const UNDECOMPOSABLE: Record<string, string> = {
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

const COMBINING_MARKS = /\p{M}/gu;

/** The ASCII search form of a term: `Münster` -> `muenster`, `Crème Brûlée` -> `creme brulee`. */
export function foldToAscii(term: string): string {
  return term
    .toLowerCase()
    .replace(/[äöüß]/g, (letter) => GERMAN[letter] ?? letter)
    .replace(/[æœøłđðþı]/g, (letter) => UNDECOMPOSABLE[letter] ?? letter)
    .normalize('NFD')
    .replace(COMBINING_MARKS, '');
}

/**
 * The `searchString` of a search-index entry: its terms separated by `;`, each followed by its
 * ASCII-folded form where that differs (`Münster;muenster`). Empty terms are left out, repeated
 * ones kept once, and a `;` inside a term becomes a space so it cannot split the term.
 */
export function searchStringOf(terms: readonly (string | null | undefined)[]): string {
  const seen = new Set<string>();
  for (const raw of terms) {
    if (raw == null) continue;
    const term = raw.replace(/[;\s]+/g, ' ').trim();
    if (term === '') continue;
    seen.add(term);
    seen.add(foldToAscii(term));
  }
  return [...seen].join(';');
}
