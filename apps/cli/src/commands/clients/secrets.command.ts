import {
  endPreviousOAuthClientSecret,
  regenerateOAuthClientSecret,
  type EntityManager,
} from '@foodshare/domain';
import type { Command } from 'commander';
import { clientSecretPepper } from '../../cli-context.ts';
import type { CliRuntime } from '../../cli-runtime.ts';
import { withClientChange } from './client-change.ts';
import { clientCommand } from './client-command.ts';
import { secretLines } from './client-lines.ts';

export async function rotateSecretCommand(
  em: EntityManager,
  clientId: string,
  pepper: string,
): Promise<{ clientId: string; secret: string; previousSecretValidUntil: string }> {
  const rotated = await regenerateOAuthClientSecret(em, { clientId }, { actorId: null, pepper });
  return {
    clientId,
    secret: rotated.secret,
    previousSecretValidUntil: rotated.previousSecretExpiresAt.toISOString(),
  };
}

/**
 * Ends the previous secret of a rotation at once, as the admin page's "end previous secret"
 * does: for a secret that may have leaked. `ended` is false when none was still valid.
 */
export async function endPreviousSecretCommand(
  em: EntityManager,
  clientId: string,
): Promise<{ clientId: string; ended: boolean }> {
  return endPreviousOAuthClientSecret(em, { clientId }, { actorId: null });
}

/** `clients rotate-secret`. */
export function rotateSecretLeaf(runtime: CliRuntime): Command {
  const { env } = runtime;
  return clientCommand(
    runtime,
    'rotate-secret',
    'give a confidential client a new secret (printed once); the previous one works 24 more hours',
    ({ clientId }) => {
      const pepper = clientSecretPepper(env);
      return withClientChange(runtime, clientId, (em) => rotateSecretCommand(em, clientId, pepper));
    },
    (result) =>
      [
        `New secret for client ${result.clientId}; the previous one works until ${result.previousSecretValidUntil}.`,
        ...secretLines(result.secret),
      ].join('\n'),
  );
}

/** `clients end-previous-secret`. */
export function endPreviousSecretLeaf(runtime: CliRuntime): Command {
  return clientCommand(
    runtime,
    'end-previous-secret',
    'end at once the secret a rotation replaced, instead of after its 24 hours (a leaked secret)',
    ({ clientId }) =>
      withClientChange(
        runtime,
        clientId,
        (em) => endPreviousSecretCommand(em, clientId),
        (result) => result.ended,
      ),
    (result) =>
      result.ended
        ? `Ended the previous secret of client ${result.clientId}: only the current one works.`
        : `Client ${result.clientId} had no previous secret still valid; nothing changed.`,
  );
}
