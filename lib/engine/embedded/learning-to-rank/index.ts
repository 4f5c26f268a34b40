export { LtrStores, DEFAULT_STORE, ELEMENT_TYPES, elementId, storeIndex, type ElementType, type StoredElement } from './ltr-stores.js';
