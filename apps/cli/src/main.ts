#!/usr/bin/env node
import { text } from 'node:stream/consumers';
import { Command } from 'commander';
import { chooseDatabase, databaseNotice, type CliEnvironment } from './cli-context.ts';
import type { CliRuntime } from './cli-runtime.ts';
import { adminsCommands } from './commands/admins.command.ts';
import { clientsCommands } from './commands/clients/clients.command.ts';
import { dbCommands } from './commands/db.command.ts';
import { demoCommands } from './commands/demo.command.ts';
import { keysCommands } from './commands/keys.command.ts';
import { membershipsCommands } from './commands/memberships.command.ts';
import { regionsCommands } from './commands/regions/regions.command.ts';
import { usersCommands } from './commands/users/users.command.ts';

function databaseNoticeOf(env: CliEnvironment): string | null {
  try {
    return databaseNotice(chooseDatabase(env));
  } catch {
    return null; // the command itself reports a missing database, in its own format
  }
}

const runtime: CliRuntime = {
  env: {
    DATABASE_URL: process.env.DATABASE_URL,
    CLIENT_SECRET_PEPPER: process.env.CLIENT_SECRET_PEPPER,
    NODE_ENV: process.env.NODE_ENV,
    KEY_ENCRYPTION_KEY: process.env.KEY_ENCRYPTION_KEY,
    SIGNING_KEY_REFRESH_SECONDS: process.env.SIGNING_KEY_REFRESH_SECONDS,
    ACCESS_TOKEN_TTL_SECONDS: process.env.ACCESS_TOKEN_TTL_SECONDS,
    REFRESH_TOKEN_TTL_SECONDS: process.env.REFRESH_TOKEN_TTL_SECONDS,
    BACKCHANNEL_LOGOUT_ALLOWED_HOSTS: process.env.BACKCHANNEL_LOGOUT_ALLOWED_HOSTS,
    EMBEDDED_POSTGRES_PORT: process.env.EMBEDDED_POSTGRES_PORT,
    REDIS_URL: process.env.REDIS_URL,
    REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX,
    REDIS_SENTINELS: process.env.REDIS_SENTINELS,
    REDIS_SENTINEL_MASTER: process.env.REDIS_SENTINEL_MASTER,
    REDIS_SENTINEL_PASSWORD: process.env.REDIS_SENTINEL_PASSWORD,
  },
  io: {
    stdout: (output) => process.stdout.write(`${output}\n`),
    stderr: (output) => process.stderr.write(`${output}\n`),
    readStdin: () => text(process.stdin),
    fail: () => {
      process.exitCode = 1;
    },
  },
};

const program = new Command('foodshare')
  .description(
    'Set up a food-sharing deployment without SQL. Reads DATABASE_URL (unset: the embedded ' +
      'PostgreSQL of `pnpm start`, at EMBEDDED_POSTGRES_PORT); clients and demo data ' +
      'also CLIENT_SECRET_PEPPER, keys also KEY_ENCRYPTION_KEY (both required when NODE_ENV=production); ' +
      'commands that end sessions or grants or change a client also REDIS_URL and REDIS_KEY_PREFIX ' +
      '(and REDIS_SENTINELS, REDIS_SENTINEL_MASTER, REDIS_SENTINEL_PASSWORD behind Sentinel).',
  )
  .showHelpAfterError()
  .addCommand(usersCommands(runtime))
  .addCommand(regionsCommands(runtime))
  .addCommand(membershipsCommands(runtime))
  .addCommand(adminsCommands(runtime))
  .addCommand(clientsCommands(runtime))
  .addCommand(dbCommands(runtime))
  .addCommand(demoCommands(runtime))
  .addCommand(keysCommands(runtime))
  .hook('preAction', () => {
    // stderr, so that `--json` output on stdout stays the JSON alone.
    const notice = databaseNoticeOf(runtime.env);
    if (notice) runtime.io.stderr(notice);
  });

await program.parseAsync();
