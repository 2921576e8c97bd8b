import { HubError } from '../core/errors.js';

/**
 * What can go wrong inside a render, named as Jinja (and so Home Assistant's messages) names it:
 * `UndefinedError: 'foo' is undefined`, `TemplateSyntaxError: ...`, `SecurityError: ...`.
 */
export type TemplateErrorKind =
  | 'TemplateSyntaxError'
  | 'UndefinedError'
  | 'SecurityError'
  | 'TypeError'
  | 'ValueError'
  | 'TemplateRuntimeError'
  | 'ZeroDivisionError'
  | 'TimeoutError'
  | 'OutputTooLarge';

/** Thrown by the sandbox and the template functions; becomes a TemplateError with the position at the end of the render. */
export class TemplateFault extends Error {
  constructor(
    readonly kind: TemplateErrorKind,
    message: string,
    /** For a TimeoutError: the time limit the render had, in ms. */
    readonly limitMs?: number,
  ) {
    super(message);
    this.name = kind;
  }
}

export function fault(kind: TemplateErrorKind, message: string, limitMs?: number): TemplateFault {
  return new TemplateFault(kind, message, limitMs);
}

/** Where in the template an error happened (1-based), as far as nunjucks knows it. */
export interface TemplatePosition {
  readonly line: number;
  readonly column: number;
}

/**
 * A template that failed to compile or render: a HubError (`template_error` over the WebSocket, 400 over
 * REST) whose message names the kind, what went wrong, the template and the position.
 */
export class TemplateError extends HubError {
  constructor(
    readonly templateKind: TemplateErrorKind,
    /** Without the template's name and position: `UndefinedError: 'foo' is undefined`. */
    readonly detail: string,
    readonly templateName: string,
    readonly position: TemplatePosition | undefined,
    /** For a render stopped at its deadline: the time limit it had, in ms. */
    readonly limitMs?: number,
  ) {
    const where = position === undefined ? '' : `, line ${position.line}, column ${position.column}`;
    super('template_error', `${templateKind}: ${detail} (template "${templateName}"${where})`);
  }
}

/**
 * Whether an error is the template budget's (docs/templates.md, "Time budget"): a render stopped at its deadline,
 * refused, or not run because its source is suspended. The budget has already warned about it once.
 */
export function isTimeout(err: unknown): boolean {
  return err instanceof TemplateError && err.templateKind === 'TimeoutError';
}
