export { parseSuggest, runSuggest, type SuggestRequest } from './suggest.js';
