export { IsmPolicies, type StoredPolicy, type ManagedIndex } from './ism-policies.js';
export { ManagementJobs, type JobKind, type StoredJob } from './management-jobs.js';
