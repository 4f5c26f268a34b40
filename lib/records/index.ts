export { SystemRecords, type SystemRecordsOptions } from './system-records.js';
