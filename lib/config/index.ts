export { loadConfig, loadEngineServerConfig, parseByteSize, parseDuration, ConfigError, type StreamConfig, type Config, type EngineServerConfig } from './config.js';
