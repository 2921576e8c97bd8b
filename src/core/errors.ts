/**
 * One place for every error a client can see. Each kind has a stable hearth code, the Home Assistant
 * WebSocket error code it maps onto, and the HTTP status REST answers with.
 */
export type WsErrorCode =
  | 'invalid_format'
  | 'id_reuse'
  | 'unknown_command'
  | 'not_found'
  | 'not_allowed'
  | 'not_supported'
  | 'service_validation_error'
  | 'home_assistant_error'
  | 'unauthorized'
  | 'timeout'
  | 'invalid_start_time'
  | 'invalid_end_time'
  | 'template_error'
  | 'invalid_token_id'
  | 'no_delete_self'
  | 'credentials_exist'
  | 'credentials_not_found'
  | 'invalid_current_password'
  | 'unknown_error';

interface ErrorKind {
  readonly ws: WsErrorCode;
  readonly status: number;
}

export const ERROR_KINDS = {
  /** A request or message whose shape is wrong (bad JSON, missing fields, wrong types). */
  invalid_format: { ws: 'invalid_format', status: 400 },
  /** A WebSocket command id that did not increase. */
  id_reuse: { ws: 'id_reuse', status: 400 },
  unknown_command: { ws: 'unknown_command', status: 400 },
  /** Service data that fails a field's schema (type, range, unknown key). */
  invalid_service_data: { ws: 'invalid_format', status: 400 },
  /** A domain-level check that failed (a code that does not match, a preset that does not exist). */
  service_validation: { ws: 'service_validation_error', status: 400 },
  service_not_found: { ws: 'not_found', status: 400 },
  entity_not_found: { ws: 'not_found', status: 404 },
  not_found: { ws: 'not_found', status: 404 },
  invalid_entity_id: { ws: 'invalid_format', status: 400 },
  invalid_state: { ws: 'invalid_format', status: 400 },
  entity_table_full: { ws: 'home_assistant_error', status: 507 },
  not_supported: { ws: 'not_supported', status: 400 },
  not_allowed: { ws: 'not_allowed', status: 403 },
  unauthorized: { ws: 'unauthorized', status: 401 },
  payload_too_large: { ws: 'invalid_format', status: 413 },
  timeout: { ws: 'timeout', status: 504 },
  hub_error: { ws: 'home_assistant_error', status: 400 },
  /** A template that does not compile or render (Home Assistant's `template_error`). */
  template_error: { ws: 'template_error', status: 400 },
  internal: { ws: 'unknown_error', status: 500 },
  /** `auth/delete_refresh_token` for a token the user does not have. */
  invalid_token_id: { ws: 'invalid_token_id', status: 400 },
  /** History, logbook and statistics queries: Home Assistant's own codes for an unusable period. */
  invalid_start_time: { ws: 'invalid_start_time', status: 400 },
  invalid_end_time: { ws: 'invalid_end_time', status: 400 },
  /** User management (config/auth/*, config/auth_provider/homeassistant/*): Home Assistant's own codes. */
  no_delete_self: { ws: 'no_delete_self', status: 400 },
  credentials_exist: { ws: 'credentials_exist', status: 400 },
  credentials_not_found: { ws: 'credentials_not_found', status: 404 },
  invalid_current_password: { ws: 'invalid_current_password', status: 400 },
} as const satisfies Record<string, ErrorKind>;

export type ErrorKindName = keyof typeof ERROR_KINDS;

export class HubError extends Error {
  readonly kind: ErrorKindName;
  constructor(kind: ErrorKindName, message: string) {
    super(message);
    this.name = 'HubError';
    this.kind = kind;
  }
  get wsCode(): WsErrorCode {
    return ERROR_KINDS[this.kind].ws;
  }
  get status(): number {
    return ERROR_KINDS[this.kind].status;
  }
}

export function isHubError(err: unknown): err is HubError {
  return err instanceof HubError;
}

/** What a client is told about any thrown value: a HubError as it is, anything else as a generic error. */
export function toClientError(err: unknown): { code: WsErrorCode; status: number; message: string } {
  if (err instanceof HubError) return { code: err.wsCode, status: err.status, message: err.message };
  return { code: 'unknown_error', status: 500, message: 'Unknown error' };
}

/** Formats a value for an error message without dumping large objects. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'None';
  let text: string;
  try {
    text = typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Home Assistant's voluptuous message when `data[key]` is not a string of at most `maxLength` (a RequestDataValidator
 * answers it after "Message format incorrect: "), or undefined when it is one.
 */
export function stringFieldProblem(data: Readonly<Record<string, unknown>>, key: string, maxLength: number): string | undefined {
  const value = Object.hasOwn(data, key) ? data[key] : undefined;
  if (value === undefined) return `required key not provided @ data['${key}']`;
  if (typeof value !== 'string' || value.length > maxLength) return `expected str for dictionary value @ data['${key}']`;
  return undefined;
}
