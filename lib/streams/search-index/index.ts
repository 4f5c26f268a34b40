export { NOT_INDEXED, SearchIndex, type Candidates, type Indexed } from './search-index.js';
export { requirementOf, ANY, type Atom, type Requirement } from './requirement.js';
