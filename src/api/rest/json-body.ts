import type { Reply } from '../../http/http.js';

/**
 * Deepest nesting of arrays and objects a request body may have. JSON.parse copes with any depth, but
 * JSON.stringify and the recursive comparisons of attributes do not: a deeply nested body stored as
 * attributes or event data would overflow the stack later, far from the request. Real data nests a few levels.
 */
export const MAX_JSON_DEPTH = 64;

export type JsonBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'too_deep' };

const EMPTY: JsonBody = { kind: 'empty' };
const INVALID: JsonBody = { kind: 'invalid' };
const TOO_DEEP: JsonBody = { kind: 'too_deep' };

// Fatal: bytes that are not UTF-8 make the body invalid JSON, as Python's strict decode does in Home Assistant.
const utf8 = new TextDecoder('utf-8', { fatal: true });

export const TOO_DEEP_MESSAGE = `Request body is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects.`;

/** Reads the body (bounded by Reply.body's limit) and parses it as JSON without ever throwing on its content. */
export async function readJsonBody(reply: Reply): Promise<JsonBody> {
  const bytes = await reply.body();
  return parseJsonBody(bytes);
}

export function parseJsonBody(bytes: Uint8Array): JsonBody {
  if (bytes.length === 0) return EMPTY;
  if (nestingExceeds(bytes, MAX_JSON_DEPTH)) return TOO_DEEP;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return INVALID;
  }
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return INVALID;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Whether brackets outside strings nest deeper than `limit`; checked on the bytes, before parsing. */
export function nestingExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACKET || b === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}
