/** The page languages; German is the platform's own, English for everyone else. */
export type Locale = 'de' | 'en';

/**
 * The first supported language in Accept-Language by quality (RFC 9110 12.5.4); English when
 * the header names neither German nor English.
 */
export function pickLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'de' || tag.startsWith('de-')) return 'de';
    if (tag === 'en' || tag.startsWith('en-') || tag === '*') return 'en';
  }
  return 'en';
}

/**
 * OIDC Core 3.1.2.1 `ui_locales`: the end user's preferred languages, space-separated, best
 * first. The first one we have wins; when it names none of ours, Accept-Language decides.
 */
export function pickUiLocale(
  uiLocales: string | undefined,
  acceptLanguage: string | undefined,
): Locale {
  for (const tag of (uiLocales ?? '').toLowerCase().split(' ')) {
    if (tag === 'de' || tag.startsWith('de-')) return 'de';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return pickLocale(acceptLanguage);
}
