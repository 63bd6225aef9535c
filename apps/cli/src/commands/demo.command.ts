import {
  DEMO_CLIENT_SECRET,
  DEMO_PASSWORD,
  DemoClientId,
  DemoUserEmail,
  loadDemoData,
  UserEntity,
  type DemoDataIds,
  type EntityManager,
} from '@foodshare/domain';
import { Command } from 'commander';
import { CliError, clientSecretPepper, isProduction, withEntityManager } from '../cli-context.ts';
import { leafCommand, runCommand, type CliRuntime, type JsonFlag } from '../cli-runtime.ts';

export interface LoadDemoOptions {
  /** CLIENT_SECRET_PEPPER of the auth service, so that the demo secret verifies there. */
  pepper: string;
  production: boolean;
  allowProduction?: boolean;
  now?: Date;
}

export interface LoadDemoResult {
  loaded: true;
  ids: DemoDataIds;
  users: typeof DemoUserEmail;
  password: string;
  clients: typeof DemoClientId;
  confidentialClientSecret: string;
}

export function assertDemoAllowed(
  options: Pick<LoadDemoOptions, 'production' | 'allowProduction'>,
): void {
  if (options.production && !options.allowProduction) {
    throw new CliError(
      'REFUSED_IN_PRODUCTION',
      'NODE_ENV is production: the demo accounts have published passwords. ' +
        'Pass --allow-production to load them anyway (a staging system).',
    );
  }
}

/**
 * Demo data goes into an empty database only: mixed into real data it would add accounts
 * with published passwords, and loaded twice it would collide with itself.
 */
export async function loadDemoCommand(
  em: EntityManager,
  options: LoadDemoOptions,
): Promise<LoadDemoResult> {
  assertDemoAllowed(options);
  const users = await em.count(UserEntity, {});
  if (users > 0) {
    throw new CliError(
      'DATABASE_NOT_EMPTY',
      `The database already has ${users} user(s); demo data is loaded into an empty database only.`,
    );
  }
  const ids = await loadDemoData(em, {
    clientSecretPepper: options.pepper,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    loaded: true,
    ids,
    users: DemoUserEmail,
    password: DEMO_PASSWORD,
    clients: DemoClientId,
    confidentialClientSecret: DEMO_CLIENT_SECRET,
  };
}

function describeDemo(result: LoadDemoResult): string {
  return [
    'Loaded the demo data.',
    `Users (password "${result.password}"):`,
    ...Object.entries(result.users).map(([name, email]) => `  ${name.padEnd(6)} ${email}`),
    'OAuth clients:',
    `  ${result.clients.public} (public)`,
    `  ${result.clients.confidential} (secret "${result.confidentialClientSecret}")`,
    `  ${result.clients.regional} (members of Musterstadt only)`,
  ].join('\n');
}

interface LoadDemoFlags extends JsonFlag {
  allowProduction?: boolean;
}

export function demoCommands(runtime: CliRuntime): Command {
  const demo = new Command('demo').description('demo data for development and trials');

  demo.addCommand(
    leafCommand(
      'load',
      'load the demo users, regions, stores, ... into an empty database (refused otherwise)',
    )
      .option('--allow-production', 'load even though NODE_ENV is production')
      .action((flags: LoadDemoFlags) =>
        runCommand(
          runtime,
          flags,
          () => {
            const options = {
              production: isProduction(runtime.env),
              allowProduction: flags.allowProduction ?? false,
            };
            // Refused before the pepper is asked for, whose absence would hide the real reason.
            assertDemoAllowed(options);
            const pepper = clientSecretPepper(runtime.env);
            return withEntityManager(runtime.env, (em) =>
              loadDemoCommand(em, { ...options, pepper }),
            );
          },
          describeDemo,
        ),
      ),
  );

  return demo;
}
