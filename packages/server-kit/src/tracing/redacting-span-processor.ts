import type { Context } from '@opentelemetry/api';
import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace';

export const REDACTED = '[redacted]';

// Attributes that carry a request's URL or target: query strings hold OAuth codes, states and
// tokens (the authorization response, the logout request), so only the path is kept.
const URL_ATTRIBUTES = new Set(['url.full', 'url.path', 'http.url', 'http.target']);
// Credentials: headers (only recorded when configured, but never wanted), the query, and SQL
// parameter values (recorded by the pg instrumentation's "enhanced reporting").
const SECRET_ATTRIBUTE = /cookie|authorization|csrf|^url\.query$|^db\.postgresql\.values$/i;
// The SQL text, under the stable name and the old one. MikroORM sends some queries with their
// values written in (`where email = 'alice@example.org'`), so literals are taken out.
const SQL_ATTRIBUTES = new Set(['db.query.text', 'db.statement']);
// Dollar-quoted strings, string constants (with '' and, for E'', backslash escapes), numbers
// that are not part of a name or a $1 placeholder.
const SQL_LITERAL =
  /\$(\w*)\$[\s\S]*?\$\1\$|\b[eE]'(?:[^'\\]|''|\\.)*'|'(?:[^']|'')*'|(?<![\w$.])\d+(?:\.\d+)?(?:e[-+]?\d+)?\b/gi;

/** The SQL with every literal value replaced by `?`, as OpenTelemetry's guidance has it. */
export function withoutLiterals(sql: string): string {
  return sql.replace(SQL_LITERAL, '?');
}

/**
 * The values to put in place of the attributes that could carry a secret: cookies,
 * Authorization headers, query strings, values in SQL. An empty object when there is nothing
 * to hide.
 */
export function redactions(attributes: Readonly<Record<string, unknown>>): Record<string, string> {
  const replaced: Record<string, string> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (SECRET_ATTRIBUTE.test(key)) {
      replaced[key] = REDACTED;
    } else if (SQL_ATTRIBUTES.has(key) && typeof value === 'string') {
      const sql = withoutLiterals(value);
      if (sql !== value) replaced[key] = sql;
    } else if (URL_ATTRIBUTES.has(key) && typeof value === 'string' && /[?#]/.test(value)) {
      replaced[key] = value.replace(/[?#].*$/s, '');
    }
  }
  return replaced;
}

/**
 * Rewrites every span as it ends, before any exporter sees it, whichever instrumentation
 * recorded it: one place for the rule rather than a hook per instrumentation that a new one
 * would miss.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  onStart(_span: Span, _parentContext: Context): void {}

  // Called while the span still takes attributes, before the exporting processor's onEnd.
  onEnding(span: Span): void {
    span.setAttributes(redactions(span.attributes));
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
