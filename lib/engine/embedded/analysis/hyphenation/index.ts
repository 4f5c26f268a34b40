/**
 * Hyphenation grammars for `hyphenation_decompounder`: an Apache FOP XML grammar read from the
 * engine's config directory (parsed once per file version) into a Liang hyphenation tree.
 */
export { HyphenationTree } from './hyphenation-tree.js';
export { GrammarError, parseFopGrammar } from './fop-grammar.js';
