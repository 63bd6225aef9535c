import {
  DEFAULT_KEY_ACTIVATION_DELAY_MS,
  formatDuration,
  listSigningKeys,
  rotateSigningKey,
  SigningKeyRotationError,
  type EntityManager,
  type SigningKeyStatus,
} from '@foodshare/domain';
import { Command, InvalidArgumentError } from 'commander';
import {
  CliError,
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  keyEncryptionKey,
  secondsFromEnv,
  withEntityManager,
} from '../cli-context.ts';
import { leafCommand, runCommand, type CliRuntime, type JsonFlag } from '../cli-runtime.ts';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DAY_MS = UNIT_MS.d;
// The auth service's default (apps/auth config), for a CLI run without its environment.
const DEFAULT_REFRESH_SECONDS = 60;

/** `90s`, `15m`, `1h`, `2d`, `500ms` or `0s`, in milliseconds. */
export function parseDuration(value: string): number {
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(value.trim());
  if (!match) {
    throw new InvalidArgumentError('Expected a duration such as 90s, 15m, 1h or 2d.');
  }
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

export interface RotateKeysOptions {
  kek: Uint8Array;
  activateAfterMs: number;
  /**
   * How long the replaced key stays published after the new one starts signing: at least
   * `longestTokenLifetimeMs` (OIDC Core 10.1.1).
   */
  retireAfterMs: number;
  /** The longest lifetime of a token the keys sign: the auth service's ACCESS_TOKEN_TTL_SECONDS. */
  longestTokenLifetimeMs: number;
  /** The auth instances' key reload interval, to warn about a shorter activation delay. */
  refreshMs: number;
  now?: Date;
}

export interface RotateKeysResult {
  kid: string;
  activatesAt: string;
  retired: { kid: string; retiresAt: string; expiresAt: string }[];
  pruned: string[];
  warnings: string[];
}

/** The domain's refusal of a too short --retire-after, in the words of the command line. */
function retireAfterTooShort(error: SigningKeyRotationError): CliError {
  const longest = formatDuration(error.longestTokenLifetimeMs);
  return new CliError(
    'RETIRE_AFTER_TOO_SHORT',
    `--retire-after ${formatDuration(error.retireAfterMs)} is too short: the replaced key ` +
      `signed tokens that stay valid up to ${longest} (ACCESS_TOKEN_TTL_SECONDS), so it must ` +
      `stay in the JWKS at least ${longest} after it stops signing, or relying parties refuse ` +
      `those tokens before they expire (OIDC Core 10.1.1). Use --retire-after ${longest} or more.`,
  );
}

export async function rotateKeysCommand(
  em: EntityManager,
  options: RotateKeysOptions,
): Promise<RotateKeysResult> {
  // rotateSigningKey checks --retire-after against the token lifetime, before it changes anything.
  const rotation = await rotateSigningKey(em, options.kek, {
    activateAfterMs: options.activateAfterMs,
    retireAfterMs: options.retireAfterMs,
    longestTokenLifetimeMs: options.longestTokenLifetimeMs,
    ...(options.now ? { now: options.now } : {}),
  }).catch((error: unknown) => {
    throw error instanceof SigningKeyRotationError ? retireAfterTooShort(error) : error;
  });
  const warnings: string[] = [];
  if (options.activateAfterMs < options.refreshMs) {
    // Still works: verifiers re-read the keys when they meet an unknown kid. But relying
    // parties holding a cached JWKS may refuse tokens of the new key until they re-fetch.
    warnings.push(
      `The new key signs before every auth instance has reloaded its keys ` +
        `(every ${options.refreshMs / 1000}s): use this only to replace a compromised key.`,
    );
  }
  return {
    kid: rotation.kid,
    activatesAt: rotation.activatesAt.toISOString(),
    retired: rotation.retired.map((key) => ({
      kid: key.kid,
      retiresAt: key.retiresAt.toISOString(),
      expiresAt: key.expiresAt.toISOString(),
    })),
    pruned: rotation.pruned,
    warnings,
  };
}

export interface KeyListing {
  kid: string;
  alg: string;
  status: SigningKeyStatus;
  activatesAt: string;
  retiresAt: string | null;
  expiresAt: string | null;
}

export async function listKeysCommand(em: EntityManager, now?: Date): Promise<KeyListing[]> {
  const keys = await listSigningKeys(em, now);
  return keys.map((key) => ({
    kid: key.kid,
    alg: key.alg,
    status: key.status,
    activatesAt: key.activatesAt.toISOString(),
    retiresAt: key.retiresAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
  }));
}

function describeRotation(result: RotateKeysResult): string {
  const lines = [
    `Published signing key ${result.kid}; it signs from ${result.activatesAt}.`,
    ...result.retired.map(
      (key) =>
        `  ${key.kid} stops signing at ${key.retiresAt} and stays published until ${key.expiresAt}.`,
    ),
  ];
  if (result.pruned.length > 0) lines.push(`  Deleted expired keys: ${result.pruned.join(' ')}`);
  lines.push(...result.warnings.map((warning) => `Warning: ${warning}`));
  return lines.join('\n');
}

function describeKeys(keys: KeyListing[]): string {
  if (keys.length === 0) return 'No signing keys yet: the auth service creates one at start.';
  return keys
    .map(
      (key) =>
        `${key.kid}  ${key.status.padEnd(7)}  signs from ${key.activatesAt}` +
        (key.retiresAt ? ` until ${key.retiresAt}` : '') +
        (key.expiresAt ? `, published until ${key.expiresAt}` : ''),
    )
    .join('\n');
}

interface RotateFlags extends JsonFlag {
  activateAfter?: number;
  retireAfter?: number;
}

export function keysCommands(runtime: CliRuntime): Command {
  const keys = new Command('keys').description(
    'token signing keys of the authorization server (reads KEY_ENCRYPTION_KEY)',
  );

  keys.addCommand(
    leafCommand(
      'rotate',
      'publish a next signing key now that starts signing after a delay; the current key retires then',
    )
      .option(
        '--activate-after <duration>',
        "delay before the new key signs, longer than the auth instances' SIGNING_KEY_REFRESH_SECONDS (default: 1h)",
        parseDuration,
      )
      .option(
        '--retire-after <duration>',
        'how long the replaced key stays published after it stops signing, at least the access-token lifetime (default: the access-token lifetime + 1d)',
        parseDuration,
      )
      .action((flags: RotateFlags) =>
        runCommand(
          runtime,
          flags,
          () => {
            const { key: kek, warning } = keyEncryptionKey(runtime.env);
            const refreshSeconds = secondsFromEnv(
              runtime.env,
              'SIGNING_KEY_REFRESH_SECONDS',
              DEFAULT_REFRESH_SECONDS,
            );
            const accessTokenSeconds = secondsFromEnv(
              runtime.env,
              'ACCESS_TOKEN_TTL_SECONDS',
              DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
            );
            return withEntityManager(runtime.env, async (em) => {
              const result = await rotateKeysCommand(em, {
                kek,
                activateAfterMs: flags.activateAfter ?? DEFAULT_KEY_ACTIVATION_DELAY_MS,
                retireAfterMs: flags.retireAfter ?? accessTokenSeconds * 1000 + DAY_MS,
                longestTokenLifetimeMs: accessTokenSeconds * 1000,
                refreshMs: refreshSeconds * 1000,
              });
              if (warning !== null) result.warnings.unshift(warning);
              return result;
            });
          },
          describeRotation,
        ),
      ),
  );

  keys.addCommand(
    leafCommand('list', 'every stored signing key with its status').action((flags: JsonFlag) =>
      runCommand(
        runtime,
        flags,
        () => withEntityManager(runtime.env, (em) => listKeysCommand(em)),
        describeKeys,
      ),
    ),
  );

  return keys;
}
