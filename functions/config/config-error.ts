import { InternalError } from '../core/errors';

/** Invalid or missing settings: the message names the variables. */
export class ConfigError extends InternalError {
  override readonly name: string = 'ConfigError';
}
