export { LocalNode, NODE_ROLES, TRANSPORT_PORT, percentOf, type FsFigures, type NodeFigures } from './local-node.js';
export { threadPools, type ThreadPool } from './thread-pools.js';
