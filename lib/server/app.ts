import Koa from 'koa';
import type { Config } from '../config/index.js';
import type { Backend } from '../engine/index.js';
import type { Authenticator } from '../auth/index.js';
import type { ChangePublisher } from '../changes/index.js';
import { appRoutes, TypedDocuments } from '../apps/index.js';
import { httpStreams, type StreamHub } from '../streams/index.js';
import { esResponse } from './es-response.js';
import { authenticate } from './authenticate.js';
import { publishWrites } from './publish-writes.js';
import { proxy } from './proxy.js';

export interface GatewayParts {
  config: Config;
  backend: Backend;
  authenticator: Authenticator;
  publisher: ChangePublisher;
  hub: StreamHub;
  log: (line: string) => void;
}

/** The request path, in order (DESIGN.md "The request's way through"). */
export function createApp({ config, backend, authenticator, publisher, hub, log }: GatewayParts, typed = new TypedDocuments(backend, publisher)): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true;
  app.use(esResponse(log));
  app.use(authenticate(authenticator));
  app.use(httpStreams(hub, backend, typed, config.maxContentLength));
  app.use(publishWrites(backend, publisher, config.maxContentLength));
  app.use(appRoutes(backend, typed, config.maxContentLength));
  app.use(proxy(backend, config.maxContentLength));
  return app;
}
