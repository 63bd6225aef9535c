import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span of an OTLP/JSON export, with the fields the tests read. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** Attribute values by key, unwrapped from OTLP's `{ stringValue }`, `{ intValue }`... */
  attributes: Record<string, unknown>;
  /** The `service.name` of the resource that sent it. */
  serviceName: unknown;
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT should say: the exporter posts to `<endpoint>/v1/traces`. */
  endpoint: string;
  /** Every request body received, as text, for searching the whole payload. */
  bodies: () => string[];
  spans: () => ReceivedSpan[];
  close: () => Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, 'attributes' | 'serviceName'> & {
        attributes?: OtlpAttribute[];
      })[];
    }[];
  }[];
}

function unwrap(attributes: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue,
    ]),
  );
}

/**
 * A collector's OTLP/HTTP trace endpoint on a free loopback port, for the JSON protocol
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json): keeps what is posted and answers as a collector does.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        response.writeHead(404).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bodies: () => [...bodies],
    spans: () =>
      bodies.flatMap((body) =>
        ((JSON.parse(body) as OtlpTraces).resourceSpans ?? []).flatMap((resourceSpan) => {
          const serviceName = unwrap(resourceSpan.resource?.attributes)['service.name'];
          return (resourceSpan.scopeSpans ?? []).flatMap((scope) =>
            (scope.spans ?? []).map((span) => ({
              ...span,
              attributes: unwrap(span.attributes),
              serviceName,
            })),
          );
        }),
      ),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
