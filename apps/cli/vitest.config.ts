import { packageTestConfig } from '../../vitest.shared.ts';

// Many tests spawn the CLI as a process, which loads the whole domain from TypeScript source:
// about 1.5 s of CPU on an idle machine, and 10 s or more while the other suites share CI's two
// cores (a test of six runs took 60 s there).
export default packageTestConfig({ globalSetup: true, testTimeout: 240_000 });
