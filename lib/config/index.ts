export { loadConfig, loadEngineServerConfig, parseByteSize, parseDuration, ConfigError, type StreamConfig, type AuthConfig, type Config, type EngineServerConfig } from './config.js';
