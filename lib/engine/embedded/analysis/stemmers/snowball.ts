/**
 * Snowball stemmers, as Lucene's SnowballFilter runs them (org.tartarus.snowball.ext, generated
 * from the Snowball sources of Lucene 9). Two libraries compiled from the same Snowball sources:
 * `@orama/stemmers` (maintained; Snowball 2.x, the generation Lucene 9 uses) for most languages,
 * and `snowball-stemmers` for the ones it lacks (Basque, Catalan, English — Porter2 — and the
 * original Porter), whose algorithms did not change since. Checked word for word against
 * Snowball's reference implementation on dictionary word lists.
 *
 * Estonian, Kp (dutch_kp) and Lovins, which no library provides, are Lucene's generated classes
 * ported onto Lucene's Snowball runtime (./snowball-programs).
 */
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as armenian } from '@orama/stemmers/armenian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as irish } from '@orama/stemmers/irish';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as serbian } from '@orama/stemmers/serbian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import snowballStemmers from 'snowball-stemmers';
import { EstonianStemmer } from './snowball-programs/estonian.js';
import { KpStemmer } from './snowball-programs/kp.js';
import { LovinsStemmer } from './snowball-programs/lovins.js';
import type { SnowballProgram } from './snowball-programs/program.js';

const ported = (program: SnowballProgram): ((term: string) => string) => (term) => program.stemTerm(term);

const legacy = (language: string): ((term: string) => string) => {
  const s = snowballStemmers.newStemmer(language);
  return (term) => s.stem(term);
};

/**
 * The Snowball stemmers by Lucene class name (`org.tartarus.snowball.ext.{Name}Stemmer`), which is
 * what the `snowball` filter's `language` names. German2 is German since Snowball 2.
 */
export const SNOWBALL_STEMMERS: Readonly<Record<string, (term: string) => string>> = {
  Arabic: arabic,
  Armenian: armenian,
  Basque: legacy('basque'),
  Catalan: legacy('catalan'),
  Danish: danish,
  Dutch: dutch,
  English: legacy('english'),
  Estonian: ported(new EstonianStemmer()),
  Finnish: finnish,
  French: french,
  German: german,
  German2: german,
  Hungarian: hungarian,
  Indonesian: indonesian,
  Irish: irish,
  Italian: italian,
  Kp: ported(new KpStemmer()),
  Lithuanian: lithuanian,
  Lovins: ported(new LovinsStemmer()),
  Norwegian: norwegian,
  Porter: legacy('porter'),
  Portuguese: portuguese,
  Romanian: romanian,
  Russian: russian,
  Serbian: serbian,
  Spanish: spanish,
  Swedish: swedish,
  Turkish: turkish,
};
