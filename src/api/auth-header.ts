/**
 * The token of an `Authorization` header, parsed exactly as Home Assistant does (http/auth.py): split once on
 * the first space, the scheme must be exactly `Bearer` (case-sensitive), and the rest is the token verbatim,
 * extra spaces included. Undefined when the header carries no bearer token.
 */
export function bearerToken(header: string): string | undefined {
  const space = header.indexOf(' ');
  // Comparing in place avoids slicing out the scheme on every request.
  if (space !== 6 || !header.startsWith('Bearer')) return undefined;
  const token = header.slice(7);
  return token === '' ? undefined : token;
}

/** Whether the header uses the bearer scheme at all (camera proxy answers 401 rather than 403 then). */
export function hasBearerScheme(header: string): boolean {
  return header.indexOf(' ') === 6 && header.startsWith('Bearer');
}
