export { IndexDocFields, ParsedDocFields } from './doc-fields.js';
export { DocScript, documentSource, prepareScript, runOnDocument, type PreparedScript, type DocScriptOptions } from './doc-script.js';
export { parseRuntimeFields, prepareRuntimeFields, searchView, runtimeFieldsOf, indexMappings, type RuntimeField } from './runtime-fields.js';
export { fieldsMentionedBy } from './mentioned-fields.js';
export { asSearchFailure } from './search-failure.js';
export { ScriptFieldValues, runtimeFieldValues } from './hit-fields.js';
export { isKnnScript, knnScoreScript, type ScoreScript } from './knn-score-script.js';
