import type { Backend, EngineRequest, EngineResponse } from './backend.js';

/** One engine call, as a function. */
export type Dispatch = (req: EngineRequest) => Promise<EngineResponse>;

/**
 * Behaviour every caller of the engine gets — REST handlers, pipeline stages, WebSocket frames,
 * streams, the declarative API, the app-addressed style — composed the way undici composes its
 * interceptors: `dispatch = interceptor(dispatch)`.
 *
 * Contract:
 * - An interceptor calls `next` at most once per request, with the request or a narrowed copy of
 *   it (never one that reaches more than the request did), or answers itself without calling it.
 * - It refuses by throwing an EsError (the caller's error path turns it into Elasticsearch's
 *   error body); an engine answer, 4xx/5xx included, is passed on as an answer, not thrown.
 * - Work after the engine's answer (publishing a change, recording a figure) never turns a
 *   successful answer into a failure: it is the engine's answer the client gets.
 * - It keeps no per-request state outside the call; a stream body is consumed once, by the engine.
 */
export type Interceptor = (next: Dispatch) => Dispatch;

/**
 * The engine with the gateway's interceptors in front of it (`intercept`): what every caller
 * acting for a client is given (DESIGN.md, step 6). A class with a private member, so the engine
 * as it is — a plain Backend — does not type-check where this is meant: passing it there would
 * silently skip the system-index guard, the cache and change publishing. (This one passes where
 * a Backend is meant: the gateway's own stores take the engine, and either type-checks there.)
 */
export class InterceptedBackend implements Backend {
  readonly kind: Backend['kind'];

  constructor(private readonly engine: Backend, private readonly dispatch: Dispatch) {
    this.kind = engine.kind;
  }

  request(req: EngineRequest): Promise<EngineResponse> {
    return this.dispatch(req);
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}

/** The engine (or an intercepted backend) with `interceptors` in front of it, the first one outermost. */
export function intercept(engine: Backend, ...interceptors: Interceptor[]): InterceptedBackend {
  let dispatch: Dispatch = (req) => engine.request(req);
  for (let i = interceptors.length - 1; i >= 0; i--) dispatch = interceptors[i](dispatch);
  return new InterceptedBackend(engine, dispatch);
}
