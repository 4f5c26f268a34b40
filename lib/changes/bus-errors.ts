import { EsError } from '../errors/index.js';

/** The bus cannot reach its store: the write already happened, only its live delivery failed. */
export function busUnavailable(detail: string): EsError {
  return new EsError(503, 'change_bus_unavailable_exception', `the change bus is unavailable: ${detail}`);
}

export function busClosed(): EsError {
  return new EsError(503, 'change_bus_unavailable_exception', 'the change bus is closed (the node is shutting down)');
}
