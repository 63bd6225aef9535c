import type { Command } from 'commander';

/** The consent page's https URIs: one option each, for create and update alike. */
export function withDisplayUriOptions(command: Command, clearable: boolean): Command {
  const options = [
    ['logo-uri', "the client's logo, shown as an image on the consent page"],
    ['client-uri', "the client's home page, linked from the consent page"],
    ['policy-uri', "the client's privacy policy, linked from the consent page"],
    ['tos-uri', "the client's terms of service, linked from the consent page"],
  ] as const;
  for (const [name, description] of options) {
    command.option(`--${name} <uri>`, `${description}: https only, never fetched by the server`);
    if (clearable) command.option(`--no-${name}`, `remove the ${name.replace('-uri', '')} URI`);
  }
  return command;
}

/** The flags of withDisplayUriOptions; false: cleared. */
export interface DisplayUriFlags {
  logoUri?: string | false;
  clientUri?: string | false;
  policyUri?: string | false;
  tosUri?: string | false;
}

/** The display URIs given on the command line; what is not given is left out. */
export function displayUrisOf(
  flags: DisplayUriFlags,
): Partial<Record<keyof DisplayUriFlags, string | null>> {
  const given: Partial<Record<keyof DisplayUriFlags, string | null>> = {};
  for (const field of ['logoUri', 'clientUri', 'policyUri', 'tosUri'] as const) {
    const value = flags[field];
    if (value !== undefined) given[field] = value === false ? null : value;
  }
  return given;
}
