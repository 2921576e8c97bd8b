import { HubError } from '../core/errors.js';

// Query strings as uWS hands them over (without the `?`): keys and values percent-decoded; a malformed escape
// is the client's error (invalid_format, a 400).

/** Whether the query string has a key, whatever its value (as `?return_response` works in Home Assistant). */
export function hasQueryKey(query: string, key: string): boolean {
  if (query === '') return false;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    if (decodeURIComponentSafe(eq === -1 ? part : part.slice(0, eq)) === key) return true;
  }
  return false;
}

export function queryValue(query: string, key: string): string | undefined {
  if (query === '') return undefined;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const k = decodeURIComponentSafe(eq === -1 ? part : part.slice(0, eq));
    if (k === key) return eq === -1 ? '' : decodeURIComponentSafe(part.slice(eq + 1).replace(/\+/g, ' '));
  }
  return undefined;
}

export function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HubError('invalid_format', `Malformed percent-encoding in ${JSON.stringify(text.slice(0, 60))}`);
  }
}
