export { StoredScripts, type StoredScriptLookup } from './stored-scripts.js';
export type { StoredScript } from './stored-script-source.js';
export { compileTemplate, renderTemplate, type CompiledTemplate } from './mustache-template.js';
export { checkHasTemplate, parseSearchTemplateRequest, renderSearchTemplate, templateSearchParams, type SearchTemplateRequest } from './search-template.js';
export { painlessContexts, scriptContexts, scriptLanguages } from './script-contexts.js';
