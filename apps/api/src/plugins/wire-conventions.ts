import { Problem } from '@foodshare/server-kit';
import type {
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
  FastifySchemaValidationError,
  RouteOptions,
} from 'fastify';
import qs from 'qs';
import type { PendingBody } from '../shared/pending-body.ts';
import { coerceFormValue, keepingKeys, withoutUnknownKeys } from './body-shape.ts';

export const JSON_CONTENT_TYPE = 'application/json';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

type BodyValidator = (data: unknown) => unknown;

interface DeferredBody {
  schema: object;
  validate: BodyValidator;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by the wire conventions for a route with a body schema; judged by `bodyOf`. */
    deferredBody?: DeferredBody;
    /**
     * The route's JSON bodies may carry booleans and numbers as text, read as a form's are:
     * the platform's page fills them from its form fields (a range input's value is text).
     */
    textScalars?: boolean;
  }
}

/** Bodies that arrived as forms: only their text values are read as booleans and numbers. */
const formBodies = new WeakSet<object>();

/** A JSON body that does not parse; a 400 only once the route's permission checks passed. */
class MalformedBody {}

/**
 * JSON as before, except that an empty body (or white space only) is no body: the platform's
 * web client sends `Content-Type: application/json` with nothing after it for calls without
 * data. A body that does not parse is kept as such and judged when the route asks for it.
 */
function acceptEmptyJson(instance: FastifyInstance): void {
  const parseJson = instance.getDefaultJsonParser('error', 'error');
  instance.removeContentTypeParser(JSON_CONTENT_TYPE);
  instance.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'string' }, (request, body, done) => {
    if (typeof body !== 'string' || body.trim() === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, body, (error, value) =>
      done(null, error ? new MalformedBody() : value),
    );
  });
}

/**
 * Forms read as PHP reads them (`kams[0]=1&kams[1]=2`, `kams[]=1`, `a[b]=c`), since the
 * platform's API tests post forms. The limits keep a hostile form small.
 */
function acceptForms(instance: FastifyInstance): void {
  instance.addContentTypeParser(
    FORM_CONTENT_TYPE,
    { parseAs: 'string' },
    (_request, body, done) => {
      const parsed = qs.parse(typeof body === 'string' ? body : '', {
        depth: 5,
        arrayLimit: 100,
        parameterLimit: 1000,
      });
      formBodies.add(parsed);
      done(null, parsed);
    },
  );
}

/**
 * A form is what a page of another site can post without asking, and a route exempt from the
 * CSRF header (login) has no token to stop it: a forged login would sign the victim in to the
 * attacker's account. Browsers say where such a request comes from, so a form posted from
 * another site is refused there; clients that are not browsers (the platform's API tests)
 * send neither header.
 */
function refusingCrossSiteForms(publicOrigin: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!isForm(request.headers['content-type'])) return;
    const { origin } = request.headers;
    const crossSite =
      request.headers['sec-fetch-site'] === 'cross-site' ||
      (origin !== undefined && origin !== publicOrigin);
    if (crossSite) {
      throw Problem.forbidden('CSRF_FAILED', 'A form from another site may not do this.');
    }
  };
}

function isForm(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === FORM_CONTENT_TYPE;
}

function guardCsrfExemptRoute(route: RouteOptions, publicOrigin: string): void {
  if (route.config?.csrf !== false) return;
  const own = route.preHandler;
  const hooks = own === undefined ? [] : Array.isArray(own) ? own : [own];
  route.preHandler = [refusingCrossSiteForms(publicOrigin), ...hooks];
}

/**
 * The platform's clients treat every success as 200; a route that says otherwise must not boot.
 * The one exception is HTTP's own: a GET may answer 304 to a conditional request
 * (`If-None-Match`), which only a client that kept an earlier answer sends.
 */
function refuseSuccessOtherThan200(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const conditionalGet = methods.every((method) => method === 'GET' || method === 'HEAD');
  const statuses = Object.keys(route.schema?.response ?? {});
  const others = statuses.filter(
    (status) => /^[23]/.test(status) && status !== '200' && !(status === '304' && conditionalGet),
  );
  if (others.length > 0) {
    throw new Error(
      `${methods.join(',')} ${route.url}: every success answers 200 (a GET may answer 304), ` +
        `but the route declares ${others.join(', ')}`,
    );
  }
}

const acceptForNow = () => true;

/**
 * Takes the body out of Fastify's validation (which runs before the handler) and keeps the
 * route's compiled body validator for `bodyOf`, so that a service judges the body after its
 * permission checks. The schema stays on the route for the OpenAPI document and the types.
 */
function deferBodyValidation(instance: FastifyInstance, route: RouteOptions): void {
  const schema = route.schema?.body;
  if (typeof schema !== 'object' || schema === null) return;
  const compile: FastifySchemaCompiler<FastifySchema> | undefined =
    route.validatorCompiler ?? instance.validatorCompiler;
  if (compile === undefined) throw new Error('the wire conventions need a validator compiler');
  const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
  const validate = compile({ schema, method, url: route.url, httpPart: 'body' }) as BodyValidator;
  route.validatorCompiler = (part) => (part.httpPart === 'body' ? acceptForNow : compile(part));
  route.config = { ...route.config, deferredBody: { schema, validate } };
}

/**
 * The wire conventions of the platform's own clients, for every route of `instance`: 200 for
 * every success (304 for a conditional GET), an empty JSON body is no body, forms are read like JSON, unknown body keys
 * are ignored, and the body is judged only after the caller's permission (`bodyOf`).
 */
export function applyWireConventions(instance: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  acceptEmptyJson(instance);
  acceptForms(instance);
  instance.addHook('onRoute', function (this: FastifyInstance, route) {
    refuseSuccessOtherThan200(route);
    deferBodyValidation(this, route);
    guardCsrfExemptRoute(route, publicOrigin);
  });
}

function validationProblem(errors: FastifySchemaValidationError[]): Error {
  // The shape Fastify gives its own validation errors: the error handler answers it with the
  // same 400 VALIDATION_FAILED as any other request part.
  return Object.assign(new Error('The body does not match the expected shape.'), {
    statusCode: 400,
    validation: errors,
    validationContext: 'body' as const,
  });
}

function judge(
  deferred: DeferredBody,
  raw: unknown,
  readsText: boolean,
  keep?: (key: string) => boolean,
): unknown {
  if (raw instanceof MalformedBody) {
    throw Problem.badRequest('MALFORMED_BODY', 'The body is not valid JSON.');
  }
  const schema = deferred.schema as Parameters<typeof withoutUnknownKeys>[0];
  let body = withoutUnknownKeys(schema, raw);
  if (keep) body = keepingKeys(body, keep);
  if (readsText || (typeof raw === 'object' && raw !== null && formBodies.has(raw))) {
    body = coerceFormValue(schema, body);
  }
  const result = deferred.validate(body) as
    boolean | { value?: unknown; error?: FastifySchemaValidationError[] };
  if (result === false) throw validationProblem([]);
  if (typeof result === 'object' && result.error) throw validationProblem(result.error);
  return typeof result === 'object' && 'value' in result ? result.value : body;
}

/**
 * The request's body, to be judged by the service once the caller may act. Typed by the
 * route's body schema, like `request.body` would be after Fastify's own validation.
 */
export function bodyOf<T>(request: FastifyRequest & { body: T }): PendingBody<T> {
  const deferred = request.routeOptions.config.deferredBody;
  if (deferred === undefined) {
    throw new Error(`${request.routeOptions.url ?? 'this route'} declares no body schema`);
  }
  const raw: unknown = request.body;
  const readsText = request.routeOptions.config.textScalars === true;
  return { validate: (keep) => judge(deferred, raw, readsText, keep) as T };
}
