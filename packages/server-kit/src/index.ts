// REQUEST_ACTOR stays inside the kit: a route sets the caller's account through provideActor.
export {
  ACCOUNT_FACTS_MAX_AGE_MS,
  provideActor,
  readAccount,
  requireActor,
  requireSession,
} from './actor.ts';
export * from './config/load-config.ts';
export * from './kv/index.ts';
export * from './logging.ts';
export * from './problem.ts';
export * from './plugins/csrf.ts';
export * from './plugins/errors.ts';
export * from './plugins/health.ts';
export * from './plugins/key-value-store.ts';
export * from './plugins/metrics.ts';
export * from './plugins/orm.ts';
export * from './plugins/request-id.ts';
export * from './plugins/requests-under-way.ts';
export * from './plugins/security-headers.ts';
export * from './plugins/session.ts';
export * from './session/ended-sessions.ts';
export * from './session/login-throttle.ts';
export * from './session/session-store.ts';
export * from './session/authenticate.ts';
export * from './session/account-changes.ts';
export * from './config/common-env.ts';
export * from './service.ts';
export * from './run-server.ts';
export { NUL_CHARACTER_KEYWORD, rejectingNulCharacters } from './validation.ts';
export * from './graceful-stop.ts';
export * from './startup-failure.ts';
export * from './request-log.ts';
export * from './release.ts';
