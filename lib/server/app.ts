import Koa from 'koa';
import type { Config } from '../config/index.js';
import type { Backend } from '../engine/index.js';
import { credentialRoutes, type AppCredentials, type Authenticator, type Authorizer, type CredentialStore } from '../auth/index.js';
import type { ChangePublisher } from '../changes/index.js';
import { appRoutes, TypedDocuments } from '../apps/index.js';
import { httpStreams, type StreamHub } from '../streams/index.js';
import { declarativeRoutes } from '../declarative/index.js';
import { pipelineApi, pipelineRoutes, type PipelineRouterOptions } from '../pipelines/index.js';
import { esResponse } from './es-response.js';
import { authenticate } from './authenticate.js';
import { authorize } from './authorize.js';
import { issueIndexCredentials } from './index-credentials.js';
import { publishWrites } from './publish-writes.js';
import { proxy } from './proxy.js';

export interface GatewayParts {
  config: Config;
  backend: Backend;
  authenticator: Authenticator;
  authorizer: Authorizer;
  store: CredentialStore;
  appCredentials: AppCredentials;
  publisher: ChangePublisher;
  hub: StreamHub;
  log: (line: string) => void;
  /** Registered pipelines and what their stages use; absent = no pipeline support. */
  pipelines?: PipelineRouterOptions;
}

/** The request path, in order (DESIGN.md "The request's way through"). */
export function createApp(parts: GatewayParts, typed = new TypedDocuments(parts.backend, parts.publisher)): Koa {
  const { config, backend, authenticator, authorizer, store, appCredentials, publisher, hub, log, pipelines } = parts;
  const app = new Koa({ proxy: false });
  app.silent = true;
  app.use(esResponse(log));
  app.use(authenticate(authenticator));
  // a route a pipeline claims runs its stages instead (its `authorization` stage is its access check)
  if (pipelines) app.use(pipelineRoutes(pipelines));
  app.use(authorize(authorizer, config.maxContentLength));
  if (pipelines) app.use(pipelineApi(pipelines));
  app.use(credentialRoutes(store, { maxContentLength: config.maxContentLength }));
  app.use(declarativeRoutes(backend, config.maxContentLength));
  app.use(httpStreams(hub, backend, typed, config.maxContentLength));
  app.use(issueIndexCredentials(backend, appCredentials, config.maxContentLength));
  app.use(publishWrites(backend, publisher, config.maxContentLength));
  app.use(appRoutes(backend, typed, appCredentials, config.maxContentLength));
  app.use(proxy(backend, config.maxContentLength));
  return app;
}
