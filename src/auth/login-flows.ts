// Home Assistant's login flows (homeassistant/components/auth/login_flow.py) and the one-time authorization codes
// they end in (auth/__init__.py's code store), in memory and bounded.
import { randomBytes, randomUUID } from 'node:crypto';

/** OAuth 4.2.1: an authorization code must expire shortly after it is issued; Home Assistant keeps it 10 minutes. */
export const AUTH_CODE_TTL_MS = 10 * 60 * 1000;
/** A flow nobody finishes is forgotten after this long. */
export const FLOW_TTL_MS = 10 * 60 * 1000;
/** Bounds: flows and codes are created before any password is checked, so a flood must not grow them. */
const MAX_FLOWS = 256;
const MAX_CODES = 256;

export interface LoginFlow {
  readonly flowId: string;
  readonly clientId: string;
  readonly redirectUri: string;
  /** The address that started the flow: Home Assistant refuses a step from another ("IP address changed"). */
  readonly address: string;
  readonly createdAt: number;
}

interface IssuedCode {
  readonly clientId: string;
  readonly userId: string;
  readonly createdAt: number;
}

export class LoginFlows {
  private readonly flows = new Map<string, LoginFlow>();
  private readonly codes = new Map<string, IssuedCode>();

  constructor(private readonly now: () => number = Date.now) {}

  start(clientId: string, redirectUri: string, address: string): LoginFlow {
    this.prune(this.flows, FLOW_TTL_MS, MAX_FLOWS);
    const flow: LoginFlow = { flowId: randomUUID().replace(/-/g, ''), clientId, redirectUri, address, createdAt: this.now() };
    this.flows.set(flow.flowId, flow);
    return flow;
  }

  get(flowId: string): LoginFlow | undefined {
    const flow = this.flows.get(flowId);
    if (flow === undefined) return undefined;
    if (this.now() - flow.createdAt >= FLOW_TTL_MS) {
      this.flows.delete(flowId);
      return undefined;
    }
    return flow;
  }

  /** Ends a flow (finished or aborted); true when it existed. */
  finish(flowId: string): boolean {
    return this.flows.delete(flowId);
  }

  /** A one-time code for `userId`, usable only with `clientId` and only within AUTH_CODE_TTL_MS. */
  issueCode(clientId: string, userId: string): string {
    this.prune(this.codes, AUTH_CODE_TTL_MS, MAX_CODES);
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, { clientId, userId, createdAt: this.now() });
    return code;
  }

  /** The user of a code, once: the code is gone after this call whether or not it matched. */
  redeemCode(clientId: string, code: string): string | undefined {
    const issued = this.codes.get(code);
    if (issued === undefined) return undefined;
    // Home Assistant keys codes by (client id, code): a code tried with another client id stays unredeemed for its own.
    if (issued.clientId !== clientId) return undefined;
    this.codes.delete(code);
    return this.now() - issued.createdAt < AUTH_CODE_TTL_MS ? issued.userId : undefined;
  }

  private prune<T extends { readonly createdAt: number }>(map: Map<string, T>, ttlMs: number, max: number): void {
    const now = this.now();
    for (const [key, value] of map) if (now - value.createdAt >= ttlMs) map.delete(key);
    while (map.size >= max) {
      const oldest = map.keys().next();
      if (oldest.done === true) break;
      map.delete(oldest.value);
    }
  }
}
