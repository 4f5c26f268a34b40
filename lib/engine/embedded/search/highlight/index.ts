export { parseHighlight, type HighlightRequest, type HighlightOptions } from './highlight-request.js';
export { highlightHit } from './highlighter.js';
