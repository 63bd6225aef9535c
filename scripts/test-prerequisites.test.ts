import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_PREREQUISITES,
  installCommand,
  missingPrerequisites,
  type Prerequisite,
} from './test-prerequisites.ts';

const WANTED: Prerequisite[] = [
  { program: 'present-tool', debianPackage: 'present-package', neededBy: 'one test' },
  { program: 'absent-tool', debianPackage: 'absent-package', neededBy: 'another test' },
  { program: 'not-executable', debianPackage: 'plain-package', neededBy: 'a third test' },
];

describe('the programs pnpm test checks before it runs anything', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'prerequisites-'));
    await writeFile(path.join(folder, 'present-tool'), '#!/bin/sh\n');
    await chmod(path.join(folder, 'present-tool'), 0o755);
    await writeFile(path.join(folder, 'not-executable'), 'data\n');
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('names what is not an executable on PATH, and the command that installs it', () => {
    const missing = missingPrerequisites(WANTED, `/nonexistent${path.delimiter}${folder}`);
    expect(missing.map((item) => item.program)).toEqual(['absent-tool', 'not-executable']);
    expect(installCommand(missing)).toBe('apt-get install -y absent-package plain-package');
  });

  it('finds a file named by its absolute path', () => {
    const file: Prerequisite = {
      program: path.join(folder, 'not-executable'),
      debianPackage: 'plain-package',
      neededBy: 'a module',
    };
    expect(missingPrerequisites([file], '')).toEqual([]);
    expect(missingPrerequisites([{ ...file, program: `${folder}/gone.so` }], '')).toHaveLength(1);
  });

  it('finds every program the suite drives on this machine', () => {
    expect(missingPrerequisites(TEST_PREREQUISITES, process.env.PATH ?? '')).toEqual([]);
  });
});
