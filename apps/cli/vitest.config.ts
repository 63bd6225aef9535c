import { packageTestConfig } from '../../vitest.shared.ts';

// Many tests spawn the CLI as a process, which loads the whole domain from TypeScript source:
// seconds on an idle machine, far more while the other suites share CI's two cores.
export default packageTestConfig({ globalSetup: true, testTimeout: 120_000 });
