export { loadConfig, loadEngineServerConfig, parseByteSize, ConfigError, type Config, type EngineServerConfig } from './config.js';
