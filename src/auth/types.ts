/** A user as the API sees one. */
export interface User {
  readonly id: string;
  readonly name: string;
  readonly username?: string;
  readonly isOwner: boolean;
  readonly isAdmin: boolean;
  /** false for a deactivated user (config/auth/update is_active), who can neither log in nor use a token. */
  readonly isActive?: boolean;
}

/** The identity a valid access token resolves to. */
export interface Principal {
  readonly user: User;
  /** The id of the long-lived token used, so that revoking it can close its open connections. */
  readonly tokenId: string;
}

export interface TokenSummary {
  readonly id: string;
  readonly name: string;
  readonly userId: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

/**
 * What the API needs from the auth store. Tokens are 256-bit random values, stored only as hashes and
 * compared in constant time.
 */
export interface Authenticator {
  /** The principal for a token, or undefined when it is unknown or revoked. */
  authenticate(token: string): Principal | undefined;
  /** Creates a long-lived token for a user; the token is returned once and never stored in clear. */
  createToken(userId: string, name: string): Promise<string>;
  listTokens(userId?: string): TokenSummary[];
  /** Revokes a token by id; listeners (open WebSockets) are told so they can close. */
  revokeToken(tokenId: string): Promise<boolean>;
  onRevoke(listener: (tokenId: string) => void): () => void;
}
