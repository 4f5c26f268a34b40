/**
 * Word lists given inline or as a file, as Elasticsearch's `Analysis.getWordList` reads them:
 * `<name>_path` (a UTF-8 file in the config directory, one word a line, blank lines and `#`
 * comments skipped, each line trimmed) wins over the inline `<name>` list, and `<name>_case: true`
 * makes the set match case-insensitively. Unreadable files are ES's 400s.
 */
import { ConfigFileError, type ConfigFiles } from './config-files.js';
import { boolSetting, illegalArgument, listSetting, stringSetting, type Definition } from './settings.js';

/** A word list file is read up to this size (ES reads any size; a tenant must not exhaust memory). */
export const MAX_WORD_LIST_BYTES = 16 * 1024 * 1024;

/** A set of words, matched exactly or ignoring case (Lucene's CharArraySet). */
export class WordSet {
  private readonly words: Set<string>;

  constructor(words: Iterable<string>, readonly ignoreCase: boolean) {
    this.words = new Set(ignoreCase ? [...words].map((w) => w.toLowerCase()) : words);
  }

  has(word: string): boolean {
    return this.words.has(this.ignoreCase ? word.toLowerCase() : word);
  }
}

/** The words of `<name>_path` or `<name>`; undefined when neither is set. */
export function wordListSetting(def: Definition, name: string, files: ConfigFiles | undefined): string[] | undefined {
  const setting = `${name}_path`;
  const file = stringSetting(def, setting);
  if (file === undefined) return listSetting(def, name, false);
  return configFileLines(files, file, setting)
    .filter((line) => line.trim().length > 0 && !line.startsWith('#'))
    .map((line) => line.trim());
}

/**
 * The lines of a UTF-8 file of the config directory, as Elasticsearch's `Analysis` reads one for a
 * setting: `label` is what its errors name the setting by (`word_list_path`; `synonyms_path_path`,
 * ES's getReaderFromFile appending `_path` to `synonyms_path`). Unreadable files are ES's 400s.
 */
export function configFileLines(files: ConfigFiles | undefined, file: string, label: string): string[] {
  if (!files) throw illegalArgument(`IOException while reading ${label}: ${file}`);
  let bytes: Buffer;
  try {
    bytes = files.read(file, MAX_WORD_LIST_BYTES);
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    if (err.problem === 'access_denied') throw illegalArgument(`Access denied trying to read file ${label}: ${err.path}`);
    throw illegalArgument(`IOException while reading ${label}: ${err.path}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw illegalArgument(`Unsupported character encoding detected while reading ${label}: ${files.resolve(file)} - files must be UTF-8 encoded`);
  }
  return text.split(/\r\n|\n|\r/);
}

/** `<name>` / `<name>_path` as a WordSet (`<name>_case`); undefined when neither is set. */
export function wordSetSetting(def: Definition, name: string, files: ConfigFiles | undefined): WordSet | undefined {
  const words = wordListSetting(def, name, files);
  return words === undefined ? undefined : new WordSet(words, boolSetting(def, `${name}_case`, false));
}
