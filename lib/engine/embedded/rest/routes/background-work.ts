import type { Route } from '../types.js';
import { reindexRoutes } from './reindex.js';
import { taskRoutes } from './tasks.js';

/** The task management API and `_reindex` (the by-query routes run as tasks too, see by-query.ts). */
export const backgroundWorkRoutes: Route[] = [...taskRoutes, ...reindexRoutes];
