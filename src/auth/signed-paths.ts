// Home Assistant's signed paths (`auth/sign_path`, `?authSig=`): a JWT naming one path, for a few seconds.
import { randomBytes } from 'node:crypto';
import { readJwt, signJwt } from './refresh-tokens.js';

export class PathSigner {
  /** Per process: signed paths live seconds, so a restart may forget them. */
  private readonly key = randomBytes(32).toString('hex');

  constructor(private readonly now: () => number = Date.now) {}

  sign(path: string, issuer: string, expiresS: number): string {
    const iat = Math.floor(this.now() / 1000);
    return signJwt({ iss: issuer, path, iat, exp: iat + expiresS }, this.key);
  }

  /** The issuer of a signature made for exactly `path` that has not expired. */
  verify(path: string, authSig: string): string | undefined {
    const claims = readJwt(authSig, () => this.key);
    return claims === undefined || claims.path !== path || claims.exp * 1000 <= this.now() ? undefined : claims.iss;
  }
}
