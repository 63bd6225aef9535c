import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const entry = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const PACKAGES = {
  domain: entry('packages/domain/src/index.ts'),
  schemas: entry('packages/schemas/src/index.ts'),
};

/** The names a package's entry point exports, values and types alike, as TypeScript sees them. */
function exportedNames(program: ts.Program, file: string): Set<string> {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`no module at ${file}`);
  return new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name));
}

/**
 * A name exported by both packages (an entity's row type and a DTO both called `Banana`) makes
 * every import a guess at which one is meant: docs/design.md §7.2 gives the bare name to the
 * DTO and `XxxEntity` to the entity.
 */
describe('the domain and schemas packages', () => {
  it('export no name in common', () => {
    const program = ts.createProgram(Object.values(PACKAGES), {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      customConditions: ['development'],
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
    });
    const domain = exportedNames(program, PACKAGES.domain);
    const schemas = exportedNames(program, PACKAGES.schemas);
    expect(domain.size).toBeGreaterThan(100);
    expect(schemas.size).toBeGreaterThan(100);
    expect([...domain].filter((name) => schemas.has(name)).sort()).toEqual([]);
  }, 60_000);
});
