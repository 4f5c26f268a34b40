export { startGateway, type CloseOptions, type RunningGateway, type StartOptions } from './gateway.js';
export { createApp } from './app.js';
