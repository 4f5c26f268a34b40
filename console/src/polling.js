import { useEffect } from 'preact/hooks';

/**
 * Runs `load(stale)` now and every `ms` (none when `ms` is 0) until `deps` change or the page goes:
 * `stale()` tells a load whose answer came after that, so it sets nothing.
 */
export function usePolling(load, deps, ms = 5000) {
  useEffect(() => {
    let stopped = false;
    const stale = () => stopped;
    load(stale);
    const timer = ms ? setInterval(() => load(stale), ms) : undefined;
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, deps);
}
