export { Task, type TaskSpec } from './task.js';
export { TaskManager, DEFAULT_WAIT_MS, type TaskFilter, type TaskResult } from './task-manager.js';
export { parseTaskId, formatTaskId, type TaskId } from './task-id.js';
export { ScrollWorker, rpsValue, type StatusFields, type BatchCounts } from './scroll-worker.js';
export { WorkQueue, MAX_RUNNING_BACKGROUND_TASKS } from './work-queue.js';
export { runScrollJob, startInBackground, inSlice, CANCELED_BY_USER, type ScrollJob, type ScrollTarget } from './scroll-job.js';
