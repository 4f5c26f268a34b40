import { pluginIndices } from '../../access/index.js';
import type { EngineContext } from '../types.js';

/**
 * The engine as a plugin's own API uses it for its system index (the Observability objects, the
 * Flow Framework's templates and states, ML Commons' model groups): the engine's indices behind the
 * caller's view, without the caller's index rights or field rules. The route's cluster privilege
 * is the request's authorization, as an OpenSearch plugin stashes the caller's context for its index.
 */
export const pluginContext = (caller: EngineContext): EngineContext => ({ ...caller, indices: pluginIndices(caller.indices), access: undefined, onHiddenField: undefined });
