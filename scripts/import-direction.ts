import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The direction of imports inside a service (docs/design.md §7.1). A service's `src/` has three
 * kinds of folders:
 *
 * - **features**: one endpoint, page or admin area each (`endpoints/token/`, `interactions/login/`,
 *   `admin/`, `features/bananas/`). A feature imports no other feature: what two of them share
 *   moves down into a shared layer.
 * - **shared layers**: everything else (`oauth/`, `stores/`, `pages/`, `plugins/`, `shared/` ...).
 *   They import no feature and not the app: the app is built from them, not the other way round.
 * - **test code**: `*.test.ts` files and the test folders (`test-support/` ...). Only tests and
 *   test code import `app.ts` or other test code; they follow the feature rule too, and reach
 *   what another feature offers through a test helper.
 *
 * `app.ts` and `server.ts` at the root of `src/` assemble the service and may import anything.
 */

export interface ServiceLayout {
  /** The service folder relative to the repository, e.g. `apps/auth`. */
  service: string;
  /** Folders under src/ whose every subfolder is one feature (`endpoints` → `endpoints/token`). */
  featureGroups: string[];
  /** Folders under src/ that are one feature as a whole (`admin`). */
  features: string[];
  /** Folders under src/ that hold only test code. */
  testFolders: string[];
}

export const SERVICES: ServiceLayout[] = [
  {
    service: 'apps/auth',
    featureGroups: ['endpoints', 'interactions'],
    features: ['admin'],
    testFolders: ['test-support', 'browser', 'conformance', 'relying-parties'],
  },
  {
    service: 'apps/api',
    featureGroups: ['features'],
    features: [],
    testFolders: ['test-support', 'compat'],
  },
];

const ENTRY_FILES = new Set(['app.ts', 'server.ts']);

/** What part of the service a file (relative to src/, `/`-separated) belongs to. */
export type FilePlace =
  | { kind: 'entry' }
  | { kind: 'feature'; feature: string; test: boolean }
  | { kind: 'loose'; group: string; test: boolean }
  | { kind: 'shared'; test: boolean }
  | { kind: 'test-code' };

export function placeOf(layout: ServiceLayout, file: string): FilePlace {
  const segments = file.split('/');
  const [top = '', second] = segments;
  const test = file.endsWith('.test.ts');
  if (segments.length === 1 && ENTRY_FILES.has(top)) return { kind: 'entry' };
  // A test at the root of src/ tests the assembled service, across every feature.
  if (segments.length === 1 && test) return { kind: 'test-code' };
  if (layout.testFolders.includes(top)) return { kind: 'test-code' };
  if (layout.features.includes(top)) return { kind: 'feature', feature: top, test };
  if (layout.featureGroups.includes(top)) {
    return segments.length > 2
      ? { kind: 'feature', feature: `${top}/${second}`, test }
      : { kind: 'loose', group: top, test };
  }
  return { kind: 'shared', test };
}

export interface ImportEdge {
  /** Importing file, relative to src/. */
  from: string;
  /** Imported file, relative to src/ (may start with `..` when it leaves src/). */
  to: string;
}

export interface Violation extends ImportEdge {
  why: string;
}

const isTestCode = (place: FilePlace) =>
  place.kind === 'test-code' || ('test' in place && place.test);

/** Why an import breaks the direction, or null when it keeps it. */
export function violationOf(layout: ServiceLayout, edge: ImportEdge): string | null {
  if (edge.to.startsWith('..')) return null;
  const from = placeOf(layout, edge.from);
  const to = placeOf(layout, edge.to);
  if (from.kind === 'entry' || from.kind === 'test-code') return null;
  if (from.kind === 'loose') {
    return `${from.group}/ holds features only: move ${edge.from} into one, or into a shared layer`;
  }
  if (to.kind === 'test-code' && !isTestCode(from)) return 'production code imports test code';
  if (to.kind === 'entry' && !isTestCode(from)) {
    return `only tests and test code import ${edge.to}; production code is what it assembles`;
  }
  if (to.kind === 'feature' || to.kind === 'loose') {
    const target = to.kind === 'feature' ? to.feature : to.group;
    if (from.kind === 'shared') return `a shared layer imports the feature ${target}`;
    if (from.feature !== target) {
      return `the feature ${from.feature} imports the feature ${target}; share through a shared layer`;
    }
  }
  return null;
}

/** The relative imports of a TypeScript source: static, `export … from` and dynamic ones. */
export function relativeImportsOf(source: string): string[] {
  return importsOf(source).filter((name) => name.startsWith('./') || name.startsWith('../'));
}

/** Every import specifier of a TypeScript source, bare and relative. */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

function sourceFiles(folder: string, prefix = ''): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return [];
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path.join(folder, entry.name), relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

/** Every import between files of the service's src/ folder. */
export function importEdges(root: string, layout: ServiceLayout): ImportEdge[] {
  const src = path.join(root, layout.service, 'src');
  return sourceFiles(src).flatMap((from) =>
    relativeImportsOf(readFileSync(path.join(src, from), 'utf8')).map((specifier) => ({
      from,
      to: path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)),
    })),
  );
}

export function violations(root: string, layout: ServiceLayout): Violation[] {
  return importEdges(root, layout).flatMap((edge) => {
    const why = violationOf(layout, edge);
    return why === null ? [] : [{ ...edge, why }];
  });
}

/**
 * Between workspaces the direction is packages → nothing above them, apps → packages. An app is
 * something that runs: no package may depend on one, and no app on another, or the two apps
 * could no longer be built, deployed and changed on their own. Tests are the exception: a test
 * may start another app to check the two together on the wire, through its `./app` and
 * `./config` exports, with the app as a devDependency. What code of two apps shares moves into a
 * package (`@foodshare/relying-party`, `@foodshare/server-kit` ...).
 */
export interface Workspace {
  /** The package name, e.g. `@foodshare/auth`. */
  name: string;
  /** The folder relative to the repository, e.g. `apps/auth`. */
  folder: string;
  app: boolean;
}

export function workspacesOf(root: string): Workspace[] {
  return ['apps', 'packages'].flatMap((parent) =>
    readdirSync(path.join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => {
        const folder = `${parent}/${entry.name}`;
        const manifest = JSON.parse(
          readFileSync(path.join(root, folder, 'package.json'), 'utf8'),
        ) as { name: string };
        return { name: manifest.name, folder, app: parent === 'apps' };
      }),
  );
}

/** Test files and test folders (`test-support/`, and a service's own test folders). */
export function isTestFile(workspace: Workspace, file: string): boolean {
  if (file.endsWith('.test.ts')) return true;
  const segments = file.split('/');
  if (segments.includes('test-support')) return true;
  const layout = SERVICES.find((service) => service.service === workspace.folder);
  return layout !== undefined && layout.testFolders.includes(segments[0] ?? '');
}

/** The workspace an import specifier (bare or relative to `file` in `from`) lands in. */
export function workspaceImported(
  workspaces: Workspace[],
  from: Workspace,
  file: string,
  specifier: string,
): Workspace | undefined {
  if (specifier.startsWith('.')) {
    const target = path.posix.normalize(
      path.posix.join(from.folder, 'src', path.posix.dirname(file), specifier),
    );
    return workspaces.find((workspace) => target.startsWith(`${workspace.folder}/`));
  }
  return workspaces.find(
    (workspace) => specifier === workspace.name || specifier.startsWith(`${workspace.name}/`),
  );
}

/** Why an import from one workspace into another breaks the direction, or null. */
export function workspaceViolationOf(from: Workspace, to: Workspace | undefined): string | null {
  if (to === undefined || to.folder === from.folder || !to.app) return null;
  return from.app
    ? `the app ${from.name} imports the app ${to.name}; share through a package`
    : `the package ${from.name} imports the app ${to.name}; packages sit below the apps`;
}

/** Every import of non-test code into an app it does not belong to. */
export function workspaceViolations(root: string): Violation[] {
  const workspaces = workspacesOf(root);
  return workspaces.flatMap((workspace) => {
    const src = path.join(root, workspace.folder, 'src');
    return sourceFiles(src)
      .filter((file) => !isTestFile(workspace, file))
      .flatMap((file) =>
        importsOf(readFileSync(path.join(src, file), 'utf8')).flatMap((specifier) => {
          const to = workspaceImported(workspaces, workspace, file, specifier);
          const why = workspaceViolationOf(workspace, to);
          const from = `${workspace.folder}/src/${file}`;
          return why === null ? [] : [{ from, to: specifier, why }];
        }),
      );
  });
}
