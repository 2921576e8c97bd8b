import { HubError } from '../../core/errors.js';
import type { Request } from '../../http/http.js';

/**
 * A path parameter, URL-decoded (uWS hands them over raw). Malformed percent-encoding is the client's
 * error: 400 naming the parameter, never a throw that escapes.
 */
export function pathParam(req: Request, index: number, name: string): string {
  const raw = req.params[index] ?? '';
  // Most ids carry no escapes; skip the decoder for them.
  if (raw.indexOf('%') === -1) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HubError('invalid_format', `Malformed percent-encoding in ${name}: ${JSON.stringify(raw.slice(0, 80))}`);
  }
}
