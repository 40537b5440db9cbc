export {
  buildChildEnv,
  envPatternMatches,
  inferToolProfile,
  ENV_DENY_LIST,
  ENV_NAME_PATTERN,
  ESSENTIAL_ENV_KEYS,
  TOOL_ENV_DEFAULTS,
  TOOL_PROFILES,
  type ChildEnvOptions,
  type EnvDenyRule,
} from './child-environment.js';
export { describeCommandError, describesInterruption } from './describe-command-error.js';
