export { HttpBackend, type HttpBackendOptions } from './http-backend.js';
