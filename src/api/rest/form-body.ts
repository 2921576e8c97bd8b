import type { Reply, Request } from '../../http/http.js';

/** Form posts to /auth/token are a few short fields. */
export const MAX_FORM_BODY_BYTES = 16 * 1024;
const MAX_FIELDS = 32;

/**
 * The fields of a form body, as aiohttp's `request.post()` reads them for Home Assistant: urlencoded (the iOS and
 * Android apps) or multipart/form-data (home-assistant-js-websocket posts a FormData). Text fields only; anything
 * else is an empty form, never an exception.
 */
export async function readFormBody(req: Request, reply: Reply): Promise<Map<string, string>> {
  const type = req.header('content-type');
  const bytes = await reply.body(MAX_FORM_BODY_BYTES);
  const text = bytes.toString('utf8');
  const kind = type.split(';')[0]?.trim().toLowerCase();
  if (kind === 'multipart/form-data') return multipartFields(text, type);
  if (kind === 'application/x-www-form-urlencoded' || kind === '') {
    const out = new Map<string, string>();
    let n = 0;
    for (const [key, value] of new URLSearchParams(text)) {
      if (++n > MAX_FIELDS) break;
      if (!out.has(key)) out.set(key, value);
    }
    return out;
  }
  return new Map();
}

function multipartFields(body: string, contentType: string): Map<string, string> {
  const out = new Map<string, string>();
  const match = contentType.match(/boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined) return out;
  const parts = body.split(`--${boundary}`);
  for (const part of parts.slice(1, MAX_FIELDS + 1)) {
    if (part.startsWith('--')) break;
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) continue;
    const headers = part.slice(0, headerEnd);
    const name = headers.match(/content-disposition:[^\r\n]*;\s*name="([^"]*)"/i)?.[1];
    if (name === undefined || /filename=/i.test(headers)) continue;
    let value = part.slice(headerEnd + 4);
    if (value.endsWith('\r\n')) value = value.slice(0, -2);
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}
