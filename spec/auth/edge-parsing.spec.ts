import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Issue 32's criterion, as a test: a request is parsed once, at the edge, into the request value;
 * no later step splits a path, parses a query string or classifies a request again. A grep over
 * lib/ for the three ways of doing it finds them in the edge's files only, and the classifier is
 * reached only through the edge's builder of the request value.
 */
const EDGE = (file: string) => file.startsWith('lib/request/') || file === 'lib/auth/classify/read-request.ts';
const FORBIDDEN = ["split('/')", 'split("/")', 'URLSearchParams', 'classifyRequest('];

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await sources(rel)));
    else if (entry.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

describe('the request is parsed at the edge only (issue 32)', () => {
  let files: Array<{ file: string; text: string }>;
  before(async () => {
    files = await Promise.all((await sources('lib')).map(async (file) => ({ file, text: await readFile(path.join(ROOT, file), 'utf8') })));
  });

  it('reads lib/ (the test sees the sources)', () => {
    expect(files.length).to.be.above(100);
    expect(files.some((f) => f.file === 'lib/auth/classify/read-request.ts')).to.equal(true);
  });

  it(`no ${FORBIDDEN.join(', ')} outside lib/request/ and lib/auth/classify/read-request.ts`, () => {
    const found: string[] = [];
    for (const { file, text } of files) {
      if (EDGE(file)) continue;
      text.split('\n').forEach((line, i) => {
        for (const pattern of FORBIDDEN) if (line.includes(pattern)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).to.deep.equal([]);
  });

  it('the request is classified from its route table entry alone, by the edge\'s builder of the request value', () => {
    // no path-reading classifier is left (classifyTarget, deleted): the matched entry's metadata is the classification
    expect(files.filter(({ text }) => /\bclassifyTarget\b/.test(text)).map((f) => f.file)).to.deep.equal([]);
    const classifying = files.filter(({ text }) => /\bclassifyRoute\(/.test(text)).map((f) => f.file);
    expect(classifying.sort()).to.deep.equal(['lib/auth/classify/classify-route.ts', 'lib/auth/classify/read-request.ts']);
    // a path is split in one place: the edge's decoder
    expect(files.filter(({ text }) => text.includes("split('/')")).map((f) => f.file)).to.deep.equal(['lib/request/request-target.ts']);
  });

  it("authorization decides on the request value's route and path parameters, never on the classification's path segments", () => {
    // the builders of the request value read the decoded segments (the edge); authorization and
    // the field rules read `route` and `pathParams` — except where a narrowed index list is
    // written back into the path the request was classified on (`narrowedSegments`)
    const BUILDERS = new Set(['lib/auth/classify/read-request.ts', 'lib/auth/classify/classify-route.ts', 'lib/auth/classify/classifying.ts', 'lib/auth/classify/render-template.ts', 'lib/auth/classify/es7-typed-paths.ts']);
    const deciding = files.filter(({ file }) => (file.startsWith('lib/auth/') && !BUILDERS.has(file)) || file === 'lib/server/authorize.ts' || file === 'lib/auth/classify/classifying.ts');
    const found: string[] = [];
    for (const { file, text } of deciding) {
      text.split('\n').forEach((line, i) => {
        if ((/\b(?:info|c|classification)\.segments\b/.test(line) || /\{\s*segments\s*\}\s*=\s*(?:info|c|classification)\b/.test(line)) && !line.includes('const segments = [...c.segments];')) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).to.deep.equal([]);
  });
});
