import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  citationProblems,
  citationsIn,
  documentSections,
  repositoryFiles,
  ROOT,
  sectionsOf,
} from './doc-citations.ts';

// This checker and its test quote the former names and bad citations on purpose.
const EXEMPT = new Set(['scripts/doc-citations.ts', 'scripts/doc-citations.test.ts']);

const DOCUMENTS = new Map([
  ['docs/spec.md', ['4', '4.1', '8']],
  ['docs/domain.md', ['3', '3.9', '3.11', '5.4']],
]);

const problemsOf = (file: string, text: string) =>
  citationProblems([{ file, text }], DOCUMENTS).map((problem) => problem.why);

describe('the citation checker', () => {
  it('reads numbered headings at every level, and nothing inside code blocks', () => {
    const markdown = [
      '# Title',
      '## 1. Scope',
      '### 1.2 Roles',
      '#### 1.2.3 Orga',
      '```',
      '## 9. Not a heading',
      '```',
      '## Unnumbered',
    ].join('\n');
    expect(sectionsOf(markdown)).toEqual(['1', '1.2', '1.2.3']);
  });

  it('finds single citations, lists of sections and Markdown links', () => {
    const text = [
      '// 404 (docs/spec.md §4.1, row 13)',
      ' * (docs/domain.md §3.9 and §3.11), then §8 alone is no citation',
      'see [docs/spec.md](docs/spec.md) §8.',
    ].join('\n');
    expect(citationsIn(text, false).map((c) => [c.line, c.document, c.section])).toEqual([
      [1, 'docs/spec.md', '4.1'],
      [2, 'docs/domain.md', '3.9'],
      [2, 'docs/domain.md', '3.11'],
      [3, 'docs/spec.md', '8'],
    ]);
  });

  it('reads a bare file name inside docs/ as its neighbour', () => {
    expect(citationsIn('as [spec.md](spec.md) §4.1 says', true)).toMatchObject([
      { document: 'docs/spec.md', section: '4.1' },
    ]);
  });

  it('accepts citations that resolve', () => {
    expect(problemsOf('apps/api/a.ts', '// docs/spec.md §4.1 and docs/domain.md §5.4')).toEqual([]);
  });

  it.each([
    ['an unknown section', '// (docs/spec.md §4.2)', 'docs/spec.md has no section §4.2'],
    [
      'one bad section of a list',
      '// (docs/domain.md §3.9 and §3.12)',
      'docs/domain.md has no section §3.12',
    ],
    ['an unknown document', '// docs/style.md §1', 'docs/style.md does not exist'],
    ['a file outside docs/', '// see spec.md §4.1', 'spec.md is not cited by its docs/ path'],
  ])('reports %s', (_what, text, why) => {
    expect(problemsOf('apps/api/a.ts', text)).toEqual([why]);
  });

  it.each([
    ['SPEC.md row 5'],
    ['DESIGN.md 3'],
    ['DOMAIN-FACTS 8'],
    ['OAUTH-CHECKLIST.md'],
    ['STYLE.md'],
    ['TOOLCHAIN.md'],
    ['SPEC Authentication 8'],
  ])('reports the former name in "%s"', (text) => {
    expect(problemsOf('packages/x.ts', `// ${text}`)).toEqual([
      'cites a document by a name outside docs/',
    ]);
  });

  it('leaves identifiers and lower-case words alone', () => {
    expect(
      problemsOf('apps/auth/a.ts', 'const STYLE = css; const SPEC_ROWS = []; // the spec'),
    ).toEqual([]);
  });
});

describe('the repository', () => {
  it('has the documents the code cites, each with numbered sections', async () => {
    const documents = await documentSections();
    for (const name of ['spec', 'design', 'domain', 'oauth']) {
      expect(documents.get(`docs/${name}.md`)?.length, name).toBeGreaterThan(5);
    }
  });

  it('numbers each section of a document once', async () => {
    for (const [document, sections] of await documentSections()) {
      const repeated = sections.filter((section, index) => sections.indexOf(section) !== index);
      expect(repeated, document).toEqual([]);
    }
  });

  it('cites only files and sections that exist in docs/, and no document by a former name', async () => {
    const files = await repositoryFiles();
    expect(files.length).toBeGreaterThan(100);
    const problems = citationProblems(files, await documentSections(), EXEMPT);
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.why} (${p.text})`)).toEqual([]);
  });

  it('cites the documents from the code, so the scan sees the citations', async () => {
    const files = await repositoryFiles();
    const cited = files.filter(
      ({ file, text }) => !file.startsWith('docs/') && citationsIn(text, false).length > 0,
    );
    expect(cited.length).toBeGreaterThan(50);
  });
});

describe("docs/README.md's table", () => {
  it('lists every document of docs/ with each of its top-level sections', async () => {
    const index = await readFile(path.join(ROOT, 'docs', 'README.md'), 'utf8');
    for (const [document, sections] of await documentSections()) {
      const name = path.basename(document);
      if (name === 'README.md') continue;
      const row = index.split('\n').find((line) => line.startsWith(`| [${name}](${name})`));
      expect(row, name).toBeDefined();
      const listed = [...(row ?? '').matchAll(/§(\d+)\b/g)].map((match) => match[1]);
      const topLevel = sections.filter((section) => !section.includes('.'));
      expect(
        topLevel.filter((section) => !listed.includes(section)),
        name,
      ).toEqual([]);
    }
  });
});
