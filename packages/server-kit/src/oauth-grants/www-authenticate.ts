/**
 * RFC 6750 3 and RFC 9449 7.1: `<scheme> error="…", error_description="…"` and any further
 * parameters; a parameter without a value is left out. Only the characters the RFCs allow in a
 * quoted value (printable ASCII without `"` and `\`) are kept: a description may quote what a
 * request sent, and a CR, LF or non-Latin-1 character would make the header unsendable.
 */
export function challenge(
  scheme: 'Bearer' | 'DPoP',
  parameters: Record<string, string | undefined>,
): string {
  const clean = (value: string) => value.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '');
  const parts = Object.entries(parameters)
    .filter((entry): entry is [string, string] => Boolean(entry[1]))
    .map(([name, value]) => `${name}="${clean(value)}"`);
  return `${scheme} ${parts.join(', ')}`;
}
