import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Comments give their reasons as `docs/<file>.md §N.N`; docs/README.md explains why. This
 * module finds those citations in the source and says which of them lead nowhere: a file that
 * is not in docs/, a section no heading of that file carries, or one of the old names of
 * documents that never were in the repository.
 */

export const ROOT = path.join(import.meta.dirname, '..');
export const DOCS_FOLDER = 'docs';

/** Where citations live: the code, the scripts, the deployment files and the docs themselves. */
const SCANNED = ['apps', 'packages', 'scripts', 'docker', 'docs', '.ci', '.github'];
const SCANNED_ROOT_FILES = ['README.md', 'eslint.config.js', 'vitest.config.ts'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '.turbo', '.data']);
const TEXT_FILE =
  /\.(ts|tsx|js|mjs|cjs|json|md|ya?ml|sh|sql|conf)$|(^|\/)(Caddyfile|Dockerfile[^/]*|run)$/;

/**
 * The names under which the maintainers' documents were cited before they moved into docs/.
 * Upper case only: `docs/spec.md` is the document, `SPEC.md` the name nobody can open.
 */
const FORMER_NAMES =
  /\b(?:SPEC|DESIGN|STYLE|TOOLCHAIN)\.md\b|\bDOMAIN-FACTS\b|\bOAUTH-CHECKLIST\b|\bSPEC\b/g;

const SECTION = String.raw`§\d+(?:\.\d+)*`;
/** `docs/x.md §1.2`, a Markdown link `[x](docs/x.md) §1.2`, and lists: `§3.9 and §3.11`. */
const CITATION = new RegExp(
  String.raw`(?<![\w/.-])(docs/)?([\w-]+\.md)\)?\s+(${SECTION}(?:(?:,\s*|\s+and\s+|\s+or\s+)${SECTION})*)`,
  'g',
);
const HEADING = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/;

export interface Citation {
  /** The file as cited, relative to the repository, e.g. `docs/spec.md`. */
  document: string;
  section: string;
  line: number;
  text: string;
}

export interface Problem {
  file: string;
  line: number;
  text: string;
  why: string;
}

/**
 * The citations in `text`. Outside docs/ a citation must name the folder; inside it, `spec.md §2`
 * is the neighbour file. A cited `README.md §N` outside docs/ is reported as it stands.
 */
export function citationsIn(text: string, inDocs: boolean): Citation[] {
  const citations: Citation[] = [];
  text.split('\n').forEach((content, index) => {
    for (const match of content.matchAll(CITATION)) {
      const [whole, folder, name = '', list = ''] = match;
      const document = folder || inDocs ? `${DOCS_FOLDER}/${name}` : name;
      for (const [, section = ''] of list.matchAll(/§(\d+(?:\.\d+)*)/g)) {
        citations.push({ document, section, line: index + 1, text: whole });
      }
    }
  });
  return citations;
}

/** Lines that still cite a document by its former name. */
export function formerNamesIn(text: string): { line: number; text: string }[] {
  return text
    .split('\n')
    .flatMap((content, index) =>
      [...content.matchAll(FORMER_NAMES)].map((match) => ({ line: index + 1, text: match[0] })),
    );
}

/** The numbered section headings of a Markdown document (`## 3. Errors`, `### 3.2 Paths`). */
export function sectionsOf(markdown: string): string[] {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return withoutCode.split('\n').flatMap((line) => {
    const match = HEADING.exec(line);
    return match?.[1] ? [match[1]] : [];
  });
}

/**
 * Every problem of `files` (path relative to the root, and text) against the documents. The
 * `exempt` files (this checker and its test) quote the names and bad citations on purpose.
 */
export function citationProblems(
  files: readonly { file: string; text: string }[],
  documents: ReadonlyMap<string, readonly string[]>,
  exempt: ReadonlySet<string> = new Set(),
): Problem[] {
  const problems: Problem[] = [];
  for (const { file, text } of files.filter(({ file }) => !exempt.has(file))) {
    for (const former of formerNamesIn(text)) {
      problems.push({ file, ...former, why: 'cites a document by a name outside docs/' });
    }
    const inDocs = file.startsWith(`${DOCS_FOLDER}/`);
    for (const citation of citationsIn(text, inDocs)) {
      const sections = documents.get(citation.document);
      const where = { file, line: citation.line, text: citation.text };
      if (!citation.document.startsWith(`${DOCS_FOLDER}/`)) {
        problems.push({ ...where, why: `${citation.document} is not cited by its docs/ path` });
      } else if (sections === undefined) {
        problems.push({ ...where, why: `${citation.document} does not exist` });
      } else if (!sections.includes(citation.section)) {
        problems.push({
          ...where,
          why: `${citation.document} has no section §${citation.section}`,
        });
      }
    }
  }
  return problems;
}

async function filesUnder(folder: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(ROOT, folder), { withFileTypes: true });
  } catch {
    return [];
  }
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const relative = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : filesUnder(relative);
      return entry.isFile() && TEXT_FILE.test(relative) ? [relative] : [];
    }),
  );
  return nested.flat();
}

/** The scanned files of the repository, with their text. */
export async function repositoryFiles(): Promise<{ file: string; text: string }[]> {
  const names = [...(await Promise.all(SCANNED.map(filesUnder))).flat(), ...SCANNED_ROOT_FILES];
  return Promise.all(
    names.map(async (file) => ({ file, text: await readFile(path.join(ROOT, file), 'utf8') })),
  );
}

/** Each Markdown file of docs/ with its section numbers, keyed by `docs/<name>.md`. */
export async function documentSections(): Promise<Map<string, string[]>> {
  const names = (await readdir(path.join(ROOT, DOCS_FOLDER))).filter((name) =>
    name.endsWith('.md'),
  );
  const entries = await Promise.all(
    names.map(async (name): Promise<[string, string[]]> => {
      const text = await readFile(path.join(ROOT, DOCS_FOLDER, name), 'utf8');
      return [`${DOCS_FOLDER}/${name}`, sectionsOf(text)];
    }),
  );
  return new Map(entries);
}
