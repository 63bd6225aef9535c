import fastifyJwt, { type TokenOrHeader } from '@fastify/jwt';
import { apiAudienceOf, Problem, provideActor, readAccount } from '@foodshare/server-kit';
import {
  accessTokenClaimsOf,
  AccessTokenDenyList,
  boundKeyOf,
  challenge,
  type CheckedDpopProof,
  DPOP_SIGNING_ALGORITHMS,
  dpopChallenge,
  DpopProofs,
  type DpopProofFailure,
  invalidDpopProofFailure,
  parsePresentedAccessToken,
  type PresentedAccessToken,
  presentsAccessToken,
  RevocationLedger,
} from '@foodshare/server-kit/oauth-grants';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiConfig, jwksUrlOf } from '../config.ts';
import { JwksKeys } from './jwks-keys.ts';

/** The scope an access token needs at /api (docs/oauth.md §11). */
export const API_SCOPE = 'api';

/** The caller an access token named, once it was verified. */
export interface AccessTokenCaller {
  userId: number;
  clientId: string;
  scopes: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request presented a valid access token; it then has no session. */
    accessToken: AccessTokenCaller | null;
  }
  interface FastifyContextConfig {
    /** true: the route acts on the browser session itself (login, logout) and takes no token. */
    sessionOnly?: boolean;
  }
}

/** RFC 6750 3 and RFC 9449 7.1: the challenge of the scheme the token came with. */
function challengeOf(
  scheme: PresentedAccessToken['scheme'],
  error: string,
  detail: string,
): string {
  if (scheme === 'DPoP') return dpopChallenge(error, detail);
  const scope = error === 'insufficient_scope' ? API_SCOPE : undefined;
  return challenge('Bearer', { error, error_description: detail, scope });
}

/** 401 `invalid_token` (RFC 6750 3.1), in the API's problem format. */
function invalidToken(scheme: PresentedAccessToken['scheme'], detail: string): Problem {
  return new Problem({
    status: 401,
    code: 'INVALID_TOKEN',
    title: 'Unauthorized',
    detail,
    headers: { 'www-authenticate': challengeOf(scheme, 'invalid_token', detail) },
  });
}

/** 403 `insufficient_scope` (RFC 6750 3.1): a valid token that was not granted `api`. */
function insufficientScope(scheme: PresentedAccessToken['scheme']): Problem {
  const detail = `The access token lacks the scope ${API_SCOPE}.`;
  return new Problem({
    status: 403,
    code: 'INSUFFICIENT_SCOPE',
    title: 'Forbidden',
    detail,
    headers: { 'www-authenticate': challengeOf(scheme, 'insufficient_scope', detail) },
  });
}

/** RFC 9449 7.1: a refused DPoP proof, 401 with the `DPoP` challenge. */
function proofProblem(failure: DpopProofFailure): Problem {
  return new Problem({
    status: 401,
    code: 'INVALID_DPOP_PROOF',
    title: 'Unauthorized',
    detail: failure.description,
    headers: failure.headers,
  });
}

const invalidProof = (description: string) =>
  proofProblem(invalidDpopProofFailure(description, 401));

/**
 * The 401 of a request with neither a session nor a token: RFC 6750 3 has a protected resource
 * name the schemes it takes.
 */
export function unauthenticated(): Problem {
  return new Problem({
    status: 401,
    code: 'UNAUTHENTICATED',
    title: 'Unauthorized',
    detail: 'You need to be logged in.',
    headers: {
      'www-authenticate': [
        challenge('Bearer', { scope: API_SCOPE }),
        challenge('DPoP', { scope: API_SCOPE, algs: DPOP_SIGNING_ALGORITHMS.join(' ') }),
      ].join(', '),
    },
  });
}

/** RFC 7519 4.1.3: `aud`, one string or several. */
function audiencesOf(claims: Record<string, unknown>): unknown[] {
  return Array.isArray(claims.aud) ? claims.aud : [claims.aud];
}

interface TokenServices {
  config: ApiConfig;
  /** What `aud` must name (API_AUDIENCE). */
  audience: string;
  denyList: AccessTokenDenyList;
  dpop: DpopProofs;
}

/**
 * onRequest of every route under /api: a request that presents an access token (Authorization
 * Bearer or DPoP) is authenticated by it alone. The token must be ours (RS256, typ at+jwt, our
 * issuer, unexpired: @fastify/jwt with fast-jwt's cache), carry the scope `api` and name the API
 * as its audience, be neither revoked nor older than its client's grant cutoff, be presented with a proof
 * of its key when bound to one (DPoP), and name an active account, whose role and flags the
 * permission hooks then read as for a session (`provideActor`).
 */
async function authenticate(services: TokenServices, request: FastifyRequest): Promise<void> {
  const { authorization } = request.headers;
  if (!presentsAccessToken(authorization)) return;
  if (request.routeOptions.config.sessionOnly === true) {
    throw Problem.forbidden(
      'SESSION_REQUIRED',
      'This route acts on a browser session: call it without an access token.',
    );
  }
  const presented = parsePresentedAccessToken(authorization);
  if (!presented) throw invalidToken('Bearer', 'The Authorization header is malformed.');
  const { scheme, token } = presented;

  let claims: Record<string, unknown>;
  try {
    claims = await request.jwtVerify<Record<string, unknown>>();
  } catch (error) {
    if (error instanceof Problem) throw error;
    const expired = (error as { code?: string }).code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED';
    throw invalidToken(
      scheme,
      expired ? 'The access token expired.' : 'The access token is invalid.',
    );
  }
  const caller = accessTokenClaimsOf(claims);
  if (!caller) throw invalidToken(scheme, 'The access token is invalid.');

  // Before any read: a token of ours without `api` (a relying party's for userinfo) costs no
  // round trip and learns nothing of the account; it does not name the API either, so the scope
  // comes first and tells it how to get one.
  if (!caller.scopes.includes(API_SCOPE)) throw insufficientScope(scheme);
  if (!audiencesOf(claims).includes(services.audience)) {
    throw invalidToken(scheme, 'The access token is not meant for this API.');
  }

  // RFC 9449 7: a bound token needs the DPoP scheme and a proof of its key; an unbound one the
  // Bearer scheme. The proof is checked here and used up only once the token proved live.
  const boundTo = boundKeyOf(claims);
  if ((boundTo === undefined) !== (scheme === 'Bearer')) {
    throw invalidToken(
      scheme,
      boundTo === undefined
        ? 'The access token is not bound to a DPoP key: send it as a Bearer token.'
        : 'The access token is bound to a DPoP key: send it with the DPoP scheme and a proof.',
    );
  }
  let proof: CheckedDpopProof | null = null;
  if (boundTo !== undefined) {
    const target = {
      method: request.method,
      url: new URL(request.url, services.config.BASE_URL).href,
      accessToken: token,
      requireNonce: false,
    };
    proof = await services.dpop.check(request.headers.dpop, target, 401);
    if (!proof) throw invalidProof('A DPoP proof is required');
    if (proof.jkt !== boundTo) throw invalidProof('The proof is signed by another key');
  }

  // The deny list and the account in parallel: one Redis and one PostgreSQL round trip.
  const [state, actor] = await Promise.all([
    services.denyList.stateOf({ jti: caller.jti, clientId: caller.clientId, iat: caller.issuedAt }),
    readAccount(request.em, caller.userId),
  ]);
  if (state === 'revoked') throw invalidToken(scheme, 'The access token was revoked.');
  if (state === 'client_grants_ended') {
    throw invalidToken(scheme, 'The application of this access token was deactivated since.');
  }
  if (!actor) throw invalidToken(scheme, 'The account of this access token is no longer active.');
  if (proof) await services.dpop.consume(proof, 401);
  provideActor(request, actor);
  request.accessToken = { userId: caller.userId, clientId: caller.clientId, scopes: caller.scopes };
}

/**
 * Access tokens at /api (docs/oauth.md §11), for the routes of `api`: verifies them with the
 * authorization server's published keys (`JwksKeys`), and the state of grants in the shared
 * key-value store and revocation ledger.
 */
export async function accessTokensPlugin(api: FastifyInstance, config: ApiConfig): Promise<void> {
  const keys = new JwksKeys({
    url: jwksUrlOf(config),
    refetchMs: config.OAUTH_JWKS_REFETCH_SECONDS * 1000,
    maxAgeMs: config.OAUTH_JWKS_MAX_AGE_SECONDS * 1000,
    timeoutMs: config.OAUTH_JWKS_TIMEOUT_MS,
  });
  await api.register(fastifyJwt, {
    // An unknown kid fails the verification (invalid_token); keys out of reach answer 503.
    secret: (_request: FastifyRequest, tokenOrHeader: TokenOrHeader) => {
      const header: { kid?: unknown } =
        'header' in tokenOrHeader ? (tokenOrHeader.header as { kid?: unknown }) : tokenOrHeader;
      return keys.pemFor(header.kid);
    },
    decode: { complete: true },
    verify: {
      extractToken: (request) =>
        parsePresentedAccessToken(request.headers.authorization ?? '')?.token,
      algorithms: ['RS256'],
      checkTyp: 'at+jwt',
      allowedIss: config.BASE_URL,
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
      cache: true,
    },
    decoratorName: 'accessTokenClaims',
  });
  const services: TokenServices = {
    config,
    audience: apiAudienceOf(config),
    denyList: new AccessTokenDenyList(
      api.kv,
      new RevocationLedger(api.kv, () => api.orm.em.fork()),
    ),
    dpop: new DpopProofs(api.kv, { fail: proofProblem }),
  };
  api.decorateRequest('accessToken', null);
  api.addHook('onRequest', (request) => authenticate(services, request));
}
