import {
  DEMO_CLIENT_SECRET,
  DEMO_PASSWORD,
  DemoClientId,
  DemoUserEmail,
  GROW_MAX_SCALE,
  GROW_MIN_SCALE,
  growDemoData,
  type GrowDemoDataResult,
  loadDemoData,
  UserEntity,
  type DemoDataIds,
  type EntityManager,
} from '@foodshare/domain';
import { Command, InvalidArgumentError } from 'commander';
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

export interface GrowDemoOptions {
  scale: number;
  production: boolean;
  allowProduction?: boolean;
}

/**
 * Grows a database holding the demo data to a production-like size (scale 1) or a part of it,
 * for benchmarks and for trying the platform at size. Refused in production like the demo data
 * itself: the grown users log in with the published demo password.
 */
export async function growDemoCommand(
  em: EntityManager,
  options: GrowDemoOptions,
): Promise<GrowDemoDataResult> {
  assertDemoAllowed(options);
  return growDemoData(em, { scale: options.scale });
}

export function parseScale(value: string): number {
  const scale = Number(value);
  if (!/^[0-9]*\.?[0-9]+$/.test(value) || scale < GROW_MIN_SCALE || scale > GROW_MAX_SCALE) {
    throw new InvalidArgumentError(
      `Expected a number from ${GROW_MIN_SCALE} to ${GROW_MAX_SCALE} (1 is the production-like size).`,
    );
  }
  return scale;
}

function describeGrowth(result: GrowDemoDataResult): string {
  const seconds = result.steps.reduce((total, step) => total + step.ms, 0) / 1000;
  return [
    `Grew the demo data at scale ${result.scale} in ${seconds.toFixed(1)} s. Rows now:`,
    ...Object.entries(result.counts).map(
      ([table, count]) => `  ${table.padEnd(24)} ${String(count).padStart(9)}`,
    ),
    `Grown users log in as grown<id>@example.org with password "${DEMO_PASSWORD}".`,
  ].join('\n');
}

interface GrowDemoFlags extends LoadDemoFlags {
  scale: number;
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

  demo.addCommand(
    leafCommand(
      'grow',
      'grow a database holding the demo data to a production-like size (scale 1: 200,000 users, ' +
        '1,000,000 messages, ...)',
    )
      .option('--scale <n>', `fraction of the production-like size`, parseScale, 1)
      .option('--allow-production', 'grow even though NODE_ENV is production')
      .action((flags: GrowDemoFlags) =>
        runCommand(
          runtime,
          flags,
          () =>
            withEntityManager(runtime.env, (em) =>
              growDemoCommand(em, {
                scale: flags.scale,
                production: isProduction(runtime.env),
                allowProduction: flags.allowProduction ?? false,
              }),
            ),
          describeGrowth,
        ),
      ),
  );

  return demo;
}
