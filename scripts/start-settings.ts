// The settings `pnpm start` and `pnpm oidc:demo` read alike, so that the demo finds the start.
import { parseIntegerOption } from './integer-option.ts';

/** The port `pnpm start` listens on without PORT. */
export const START_DEFAULT_PORT = 8080;

/**
 * PORT as `pnpm start` reads it, strictly: Number() would read "abc" as NaN and " " as 0, a
 * random port. `undefined` when PORT is no port; unset or empty, the default.
 */
export function startPort(env: NodeJS.ProcessEnv): number | undefined {
  const port = parseIntegerOption('PORT', env.PORT || String(START_DEFAULT_PORT), 0, 65535);
  return 'value' in port ? port.value : undefined;
}

/** The origin `pnpm start` serves on `port`: BASE_URL when set. */
export function startOrigin(env: NodeJS.ProcessEnv, port: number): string {
  return env.BASE_URL || `http://localhost:${port}`;
}
