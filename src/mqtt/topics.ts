/** MQTT topic filters: `+` matches one level, `#` the rest (and the parent itself), as in the spec (4.7). */
export function topicMatches(filter: string, topic: string): boolean {
  if (filter === topic) return true;
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    const part = f[i];
    if (part === '#') return i > 0 || !topic.startsWith('$');
    if (i >= t.length) return false;
    if (part === '+') {
      if (i === 0 && (t[0] ?? '').startsWith('$')) return false;
      continue;
    }
    if (part !== t[i]) return false;
  }
  return f.length === t.length;
}

/** A subscription filter is valid when `#` is last and alone in its level and `+` is alone in its level. */
export function isValidFilter(filter: string): boolean {
  if (filter === '' || filter.length > 65535) return false;
  const parts = filter.split('/');
  return parts.every((p, i) => (p.includes('#') ? p === '#' && i === parts.length - 1 : !p.includes('+') || p === '+'));
}

/** A topic to publish to: no wildcards, not empty. */
export function isValidTopic(topic: string): boolean {
  return topic !== '' && topic.length <= 65535 && !topic.includes('+') && !topic.includes('#');
}

/** An entity id as a discovery object id (`light.kitchen` -> `light_kitchen`); ids allow [a-zA-Z0-9_-]. */
export function objectIdOf(entityId: string): string {
  return entityId.replace(/[^a-zA-Z0-9_-]/g, '_');
}
