export { SearchIndex, type Candidates } from './search-index.js';
export { requirementOf, ANY, type Atom, type Requirement } from './requirement.js';
