import type { EntityManager } from '@foodshare/domain';
import type { Command } from 'commander';
import { withEntityManager } from '../cli-context.ts';
import {
  leafCommand,
  parsePositiveInteger,
  runCommand,
  type CliRuntime,
  type JsonFlag,
} from '../cli-runtime.ts';

/** The arguments of a command about one user in one region: `<email> <regionId>`. */
export interface UserInRegion {
  email: string;
  regionId: number;
}

/** A leaf `<name> <email> <regionId>` that runs `run` in a transaction and prints `describe`. */
export function userInRegionLeaf<T>(
  runtime: CliRuntime,
  name: string,
  description: string,
  run: (em: EntityManager, args: UserInRegion) => Promise<T>,
  describe: (result: T) => string,
): Command {
  return leafCommand(name, description)
    .argument('<email>', 'email address of the user')
    .argument('<regionId>', 'id of the region or working group', parsePositiveInteger)
    .action((email: string, regionId: number, flags: JsonFlag) =>
      runCommand(
        runtime,
        flags,
        () => withEntityManager(runtime.env, (em) => run(em, { email, regionId })),
        describe,
      ),
    );
}
