import { seededRandom } from '../../../support/seeded-random.js';

/**
 * A small package corpus kept in the repository, shaped like the Debian records of
 * `../shared/data` (name, section, installed_size_kb, depends, summary, tags) and drawn from the
 * words the parity queries ask for, so that every query selects some documents and leaves others:
 * the parity spec runs on it when the shared corpus is not there, and never skips.
 */
const STEMS = ['ssl', 'xml', 'png', 'curl', 'gtk', 'qt', 'boost', 'json', 'yaml', 'zip', 'sql', 'http', 'font', 'audio', 'pyhton', 'perl'];
const SECTIONS = ['libs', 'devel', 'perl', 'python', 'utils', 'games', 'net', 'admin', 'doc', 'libdevel'];
const SUMMARIES = [
  (w: string) => `${w} shared library files`,
  (w: string) => `development files for the ${w} library`,
  (w: string) => `Python module for ${w} handling`,
  (w: string) => `Perl module to read ${w} data`,
  (w: string) => `command line tool for ${w}`,
  (w: string) => `${w} library shared by the desktop`,
  (w: string) => `documentation for ${w} (development files)`,
  (w: string) => `tool and python library for ${w} files`,
  (w: string) => `${w} perl and python module`,
  (w: string) => `libary of ${w} routines`,
];
const TAGS = ['role::shared-lib', 'devel::library', 'implemented-in::c', 'implemented-in::python', 'role::program', 'interface::commandline'];

export function syntheticPackages(count: number, seed = 7): Array<Record<string, unknown>> {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const stem = pick(STEMS);
    const forms = [`lib${stem}${i % 7}`, `lib${stem}-dev`, `python3-${stem}`, `${stem}-tools`, `lib${stem}-perl`, `${stem}${i}`];
    names.push(`${pick(forms)}${i % 3 === 0 ? '' : `-${i}`}`);
  }
  return names.map((name, i) => {
    const doc: Record<string, unknown> = {
      name,
      version: `${1 + (i % 5)}.${i % 10}-${1 + (i % 3)}`,
      section: pick(SECTIONS),
      installed_size_kb: Math.round(Math.exp(random() * 11)),
      depends: Array.from({ length: Math.floor(random() * 4) }, () => pick(names)),
      summary: pick(SUMMARIES)(pick(STEMS)),
    };
    if (random() < 0.6) doc.tags = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(TAGS));
    return doc;
  });
}
