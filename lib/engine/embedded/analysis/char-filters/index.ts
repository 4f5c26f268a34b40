/** Char filter types by name: building one from a definition (ES `analysis.char_filter` entries). */
import { illegalArgument, type Definition } from '../settings.js';
import type { CharFilter } from '../types.js';
import { htmlStripFromDefinition } from './html-strip.js';
import { mappingFromDefinition } from './mapping.js';
import { patternReplaceFromDefinition } from './pattern-replace.js';

export function createCharFilter(type: string, def: Definition, name: string): CharFilter {
  switch (type) {
    case 'html_strip':
      return htmlStripFromDefinition(def);
    case 'mapping':
      return mappingFromDefinition(def);
    case 'pattern_replace':
      return patternReplaceFromDefinition(def);
    default:
      throw illegalArgument(`Unknown char_filter type [${type}] for [${name}]`);
  }
}

/** Char filters usable by bare name (only html_strip needs no settings). */
export const PREBUILT_CHAR_FILTERS = new Set(['html_strip']);
