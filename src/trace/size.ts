/**
 * About how many bytes a value takes as JSON, counted only up to `limit` (the walk stops there), so a trace can
 * bound itself without serializing anything while a run is going.
 */
export function approxBytes(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop();
    switch (typeof v) {
      case 'string':
        total += v.length + 2;
        break;
      case 'number':
      case 'bigint':
        total += 8;
        break;
      case 'boolean':
        total += 5;
        break;
      case 'object':
        if (v === null) total += 4;
        else if (Array.isArray(v)) {
          total += 2 + v.length;
          for (const item of v) stack.push(item);
        } else {
          total += 2;
          for (const key in v) {
            total += key.length + 4;
            stack.push((v as Record<string, unknown>)[key]);
          }
        }
        break;
      default:
        total += 4;
    }
  }
  return total;
}
