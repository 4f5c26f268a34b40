export { HttpBackend, type HttpBackendOptions } from './http-backend.js';
export { DocTypeInjection, injectDocType } from './doc-type-injection.js';
