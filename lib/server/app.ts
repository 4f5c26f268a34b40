import Koa from 'koa';
import type { Config } from '../config/index.js';
import type { Backend } from '../engine/index.js';
import type { Authenticator } from '../auth/index.js';
import { appRoutes } from '../apps/index.js';
import { esResponse } from './es-response.js';
import { authenticate } from './authenticate.js';
import { proxy } from './proxy.js';

export interface GatewayParts {
  config: Config;
  backend: Backend;
  authenticator: Authenticator;
  log: (line: string) => void;
}

/** The request path, in order (DESIGN.md "The request's way through"). */
export function createApp({ config, backend, authenticator, log }: GatewayParts): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true;
  app.use(esResponse(log));
  app.use(authenticate(authenticator));
  app.use(appRoutes(backend, config.maxContentLength));
  app.use(proxy(backend, config.maxContentLength));
  return app;
}
