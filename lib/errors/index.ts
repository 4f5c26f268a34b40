export { EsError, errorBody, toEsError, type EsErrorBody } from './es-error.js';
export { errors } from './errors.js';
