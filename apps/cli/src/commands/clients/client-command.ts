import type { Command } from 'commander';
import { leafCommand, runCommand, type CliRuntime, type JsonFlag } from '../../cli-runtime.ts';

export interface ClientIdFlags extends JsonFlag {
  clientId: string;
  yes?: boolean;
}

/** A command that names one client by `--client-id` and runs `action` on it. */
export function clientCommand<T>(
  runtime: CliRuntime,
  name: string,
  description: string,
  action: (flags: ClientIdFlags) => Promise<T>,
  describe: (result: T) => string,
): Command {
  return leafCommand(name, description)
    .requiredOption('--client-id <clientId>', 'the client')
    .action((flags: ClientIdFlags) => runCommand(runtime, flags, () => action(flags), describe));
}
