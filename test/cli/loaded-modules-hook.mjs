// Preloaded (`--import`) into a `hearth serve` child by optional-packages.test.ts: writes the URL of every ES module the
// process resolves, and at exit every CommonJS file in require's cache, one a line, to $HEARTH_LOADED_MODULES.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const out = process.env.HEARTH_LOADED_MODULES;
if (out !== undefined) {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      appendFileSync(${JSON.stringify(out)}, resolved.url + '\\n');
      return resolved;
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  const require = createRequire(import.meta.url);
  process.on('exit', () => appendFileSync(out, `${Object.keys(require.cache).join('\n')}\n`));
}
