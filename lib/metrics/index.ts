export { GatewayMetrics, type MetricSources } from './gateway-metrics.js';
export { requestMetrics } from './request-metrics.js';
export { engineMetrics } from './engine-metrics.js';
export { metricsRoutes, serveMetrics } from './metrics-routes.js';
export { authorizationDisagreements, authorizationDisagreementCount } from './authorization-disagreements.js';
