export { appRoutes, registeredAppGreeting } from './routes.js';
export { AppRegistry, APPS_INDEX, APP_MAPPINGS, type AppRecord } from './app-registry.js';
export { TYPE_FIELD } from './type-field.js';
export { TypedDocuments, type Reply } from './typed-documents.js';
export { typeFieldHiding, withoutTypeField } from './type-field-hiding.js';
export { installRawSubfieldTemplate } from './raw-subfields.js';
