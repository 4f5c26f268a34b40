/** The web console's files, served at /_console. */
export { CONSOLE_PATH, CONSOLE_DIST, consoleAssets } from './console-assets.js';
