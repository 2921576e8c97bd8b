/** Home Assistant's _RE_JINJA_DELIMITERS: an expression, a statement or a comment opens anywhere in the text. */
const DELIMITERS = /\{%|\{\{|\{#/;

/**
 * Whether a text is a template (the inverse of Home Assistant's is_static): the one test every part uses, so a
 * text with only a `{# comment #}` is a template everywhere (it renders to what is left without the comment).
 */
export function isTemplate(text: string): boolean {
  return DELIMITERS.test(text);
}
