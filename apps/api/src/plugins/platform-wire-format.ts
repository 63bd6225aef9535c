import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import { ProblemSchema, parseIdParam } from '@foodshare/schemas';
import { Problem, rejectingNulCharacters } from '@foodshare/server-kit';
import type {
  FastifyInstance,
  FastifyRequest,
  FastifySchemaCompiler,
  FastifySchemaValidationError,
  RouteOptions,
} from 'fastify';
import qs from 'qs';
import { coerceFormValue, type SchemaNode, withoutUnknownKeys } from './body-shape.ts';

export const JSON_CONTENT_TYPE = 'application/json';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** Bodies that arrived as forms: only their text values are read as booleans and numbers. */
const formBodies = new WeakSet<object>();

/** A JSON body that does not parse; the body's validation answers it with a 400. */
class MalformedBody {}

/**
 * JSON as before, except that an empty body (or white space only) is no body: the platform's
 * web client sends `Content-Type: application/json` with nothing after it for calls without
 * data. A body that does not parse is kept as such and refused by the body's validation, so
 * that the route's hooks (401, 403) answer first.
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

type Validation = { value: unknown } | { error: Error | FastifySchemaValidationError[] };
type Validator = (data: unknown) => Validation;

type Compile = (route: { schema: unknown; httpPart?: string }) => Validator;

/** TypeBox's compiler, refusing U+0000 in any value or key it is handed. */
const compileTypeBox = rejectingNulCharacters(TypeBoxValidatorCompiler) as Compile;

/**
 * A body as the platform's clients send it: an unparsable JSON body is a 400 MALFORMED_BODY,
 * keys the schema does not name are dropped, and a form's text values (or, with
 * `textScalars`, a JSON body's too) become the booleans and numbers the schema asks for.
 */
function bodyValidator(schema: SchemaNode, textScalars: boolean): Validator {
  const check = compileTypeBox({ schema, httpPart: 'body' });
  return (data) => {
    if (data instanceof MalformedBody) {
      return { error: Problem.badRequest('MALFORMED_BODY', 'The body is not valid JSON.') };
    }
    // Fastify hands a missing body over as null.
    const raw = data ?? undefined;
    let body = withoutUnknownKeys(schema, raw);
    const fromForm = typeof raw === 'object' && raw !== null && formBodies.has(raw);
    if (textScalars || fromForm) body = coerceFormValue(schema, body);
    return check(body);
  };
}

const DIGITS = /^\d+$/;

/**
 * Path params: an integer is written as plain digits (docs/spec.md §4.1). TypeBox's
 * conversion would also read `1.5`, `0x10`, `1e3` or ` 7` as a number, so that one row had
 * many URLs; anything else fails, and a path value that fails is a 404 (docs/design.md §3.2).
 */
function paramsValidator(schema: SchemaNode): Validator {
  // As a body: TypeBox then checks the values without converting them.
  const check = compileTypeBox({ schema, httpPart: 'body' });
  const integers = Object.entries(schema.properties ?? {})
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
  return (data) => {
    const params = { ...(data as Record<string, unknown>) };
    for (const name of integers) {
      const value = params[name];
      if (typeof value === 'string' && DIGITS.test(value)) params[name] = Number(value);
    }
    return check(params);
  };
}

/**
 * The validator compiler of the platform's wire format: bodies and path params as above, the
 * query string and headers converted by TypeBox as usual, and U+0000 refused everywhere (in a
 * body once the keys it does not know are dropped).
 * `textScalars`: the route's JSON bodies may carry booleans and numbers as text, read as a
 * form's are (the platform's options page fills them from its form fields).
 */
export function platformValidatorCompiler(
  options: { textScalars?: boolean } = {},
): FastifySchemaCompiler<unknown> {
  return (route) => {
    const schema = route.schema as SchemaNode;
    if (route.httpPart === 'body') return bodyValidator(schema, options.textScalars === true);
    if (route.httpPart === 'params') return paramsValidator(schema);
    return compileTypeBox(route);
  };
}

/**
 * The wire format of the platform's own clients, for every route of `instance`: 200 for every
 * success (304 for a conditional GET), an empty JSON body is no body, forms are read like JSON,
 * unknown body keys are ignored, integer path params are plain digits.
 */
export function platformWireFormat(instance: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  acceptEmptyJson(instance);
  acceptForms(instance);
  instance.setValidatorCompiler(platformValidatorCompiler());
  instance.addHook('onRoute', (route) => {
    refuseSuccessOtherThan200(route);
    guardCsrfExemptRoute(route, publicOrigin);
  });
}

/** The error answers every route that names a resource by its path can give. */
export const resourceProblems = { 401: ProblemSchema, 403: ProblemSchema, 404: ProblemSchema };

const patterns = new Map<string, RegExp>();

/** `pattern`, else the one the route's params schema gives `name`; plain digits for an integer. */
function patternOf(request: FastifyRequest, name: string, pattern?: string): RegExp {
  const params = request.routeOptions.schema?.params as
    { properties?: Record<string, { pattern?: string }> } | undefined;
  const source = pattern ?? params?.properties?.[name]?.pattern;
  if (source === undefined) return DIGITS;
  let compiled = patterns.get(source);
  if (!compiled) patterns.set(source, (compiled = new RegExp(source)));
  return compiled;
}

/**
 * The id that path segment `name` names: the one way a route reads a path id, in a hook
 * (where the params are still raw text) or in its handler. A value that does not match
 * `pattern` (by default the route's params schema), or one beyond 32 bits, names no row: 404
 * (docs/design.md §3.2).
 * Routes call it after `requireActor`, so the answers come as 401, then 404, then 403
 * (docs/adding-an-endpoint.md §2.2).
 */
export function idFromPath(request: FastifyRequest, name: string, pattern?: string): number {
  const value = (request.params as Record<string, unknown>)[name];
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !patternOf(request, name, pattern).test(text))
    throw Problem.notFound();
  const id = parseIdParam(text);
  if (id === undefined) throw Problem.notFound();
  return id;
}
