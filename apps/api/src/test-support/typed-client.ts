import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';

/** The types a client generator makes of the document: `paths`, `components`, `operations`. */
export async function generateClientTypes(document: OpenAPI3): Promise<string> {
  return astToString(await openapiTS(document, { silent: true }));
}

const API_TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
/**
 * Where the checked files seem to lie: inside the api package, so that `openapi-fetch`
 * resolves from its node_modules and the package's `"type": "module"` applies. Nothing is
 * written there: the compiler host serves the files from memory.
 */
const VIRTUAL_DIRECTORY = fileURLToPath(new URL('./generated-client/', import.meta.url));

function compilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    API_TSCONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (parsed === undefined) throw new Error(`cannot read ${API_TSCONFIG}`);
  // The api's own settings (strict, NodeNext); only `fetch` and its types come from the DOM lib.
  return { ...parsed.options, noEmit: true, lib: [...(parsed.options.lib ?? []), 'lib.dom.d.ts'] };
}

/**
 * Type-checks TypeScript files held in memory (name -> text) with the repository's TypeScript
 * and the api's compiler options, as `tsc --noEmit` would; answers each file's errors.
 */
export function typeCheck(files: Record<string, string>): Record<string, string[]> {
  const options = compilerOptions();
  const inMemory = new Map(
    Object.entries(files).map(([name, text]) => [VIRTUAL_DIRECTORY + name, text]),
  );
  const disk = ts.createCompilerHost(options, true);
  const host: ts.CompilerHost = {
    ...disk,
    fileExists: (fileName) => inMemory.has(fileName) || disk.fileExists(fileName),
    directoryExists: (name) =>
      VIRTUAL_DIRECTORY.startsWith(`${name}/`) || (disk.directoryExists?.(name) ?? true),
    readFile: (fileName) => inMemory.get(fileName) ?? disk.readFile(fileName),
    getSourceFile: (fileName, language, ...rest) => {
      const text = inMemory.get(fileName);
      if (text === undefined) return disk.getSourceFile(fileName, language, ...rest);
      return ts.createSourceFile(fileName, text, language, true);
    },
  };
  const program = ts.createProgram([...inMemory.keys()], options, host);
  const errors: Record<string, string[]> = Object.fromEntries(
    Object.keys(files).map((name) => [name, []]),
  );
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const fileName = diagnostic.file?.fileName ?? '';
    const name = fileName.startsWith(VIRTUAL_DIRECTORY)
      ? fileName.slice(VIRTUAL_DIRECTORY.length)
      : '(other)';
    const line =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
        : 0;
    (errors[name] ??= []).push(`${name}:${line}: TS${diagnostic.code} ${message}`);
  }
  return errors;
}
