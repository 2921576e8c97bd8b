/**
 * Entity id rules as Home Assistant applies them (core.py `valid_entity_id`, const.py lengths):
 * lower-case ASCII letters, digits and `_`; exactly one dot; no part starts or ends with `_`; no `__` anywhere.
 */
const ENTITY_ID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;
const DOMAIN = /^(?!.+__)(?!_)[\da-z_]+(?<!_)$/;

export const MAX_ENTITY_ID_LENGTH = 255;
export const MAX_DOMAIN_LENGTH = 64;
export const MAX_STATE_LENGTH = 255;
export const MAX_EVENT_TYPE_LENGTH = 64;

export function isValidEntityId(id: string): boolean {
  if (id.length > MAX_ENTITY_ID_LENGTH || !ENTITY_ID.test(id)) return false;
  return id.indexOf('.') <= MAX_DOMAIN_LENGTH;
}

export function isValidDomain(domain: string): boolean {
  return domain.length <= MAX_DOMAIN_LENGTH && DOMAIN.test(domain);
}

/** Why an id is invalid, for error messages; undefined when it is valid. */
export function entityIdProblem(id: string): string | undefined {
  if (isValidEntityId(id)) return undefined;
  if (id.length > MAX_ENTITY_ID_LENGTH) return `entity id is longer than ${MAX_ENTITY_ID_LENGTH} characters`;
  const dot = id.indexOf('.');
  if (dot > MAX_DOMAIN_LENGTH) return `domain is longer than ${MAX_DOMAIN_LENGTH} characters`;
  return 'format should be <domain>.<object_id>: lower-case letters, digits and single underscores, not starting or ending with an underscore';
}

export function splitEntityId(id: string): [domain: string, objectId: string] {
  const dot = id.indexOf('.');
  return [id.slice(0, dot), id.slice(dot + 1)];
}

export function domainOf(id: string): string {
  return id.slice(0, id.indexOf('.'));
}

/** Turns a display name into an object id the way Home Assistant's `slugify` does for ASCII names. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return slug === '' ? 'unknown' : slug;
}
