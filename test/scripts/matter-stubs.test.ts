// The controller side of matter.js, left out of the built hub's bundle (scripts/matter-stubs.mjs): the stubs' names
// and errors, the checks that fail the build when matter.js changes, and what the built bundle holds (also of
// LAZY_GROUPS and LAZY_MODELS).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { assertAllUsed, exportedNames, MATTER_STUBS, stubbed } from '../../scripts/matter-stubs.mjs';
import { packageRoot } from '../../src/util/paths.js';

const MATTER = join(packageRoot(), 'node_modules', '@matter');
const DIST = join(packageRoot(), 'dist', 'hearth');

t.test('which of matter.js modules are stubbed', async (t) => {
  const cases: Array<[string, boolean]> = [
    ['protocol/dist/esm/peer/ControllerCommissioner.js', true],
    ['protocol/dist/esm/dcl/DclCertificateService.js', true],
    ['protocol/dist/esm/dcl/index.js', false],
    ['node/dist/esm/node/client/Peers.js', true],
    ['node/dist/esm/node/ServerNode.js', false],
    ['protocol/dist/esm/session/case/CaseServer.js', false],
    ['protocol/dist/esm/session/case/CaseClient.js', true],
  ];
  for (const [path, expected] of cases) t.equal(stubbed(join(MATTER, path)), expected, path);
});

t.test('the names a stub exports are those of the module it replaces', async (t) => {
  const file = join(MATTER, 'protocol/dist/esm/peer/ControllerCommissioner.js');
  t.same(exportedNames(readFileSync(file, 'utf8'), file), ['ControllerCommissioner']);
  t.same(exportedNames('/** types only */\n//# sourceMappingURL=X.js.map\n', 'X.js'), [], 'a module of types exports nothing');
  t.same(exportedNames('class A {}\nclass B {}\nexport {\n  A,\n  B as C\n};\n', 'AB.js'), ['A', 'C']);
  t.throws(() => exportedNames('export class A {}\nexport {\n  B\n};\n', 'A.js'), /A\.js exports other than by one closing list/);
  t.throws(() => exportedNames('class A {}\n', 'A.js'), /A\.js has code but no exports/);
});

t.test('a pattern that matches no module fails the build', async (t) => {
  t.doesNotThrow(() => assertAllUsed(new Set(MATTER_STUBS)));
  t.throws(() => assertAllUsed(new Set(MATTER_STUBS.slice(1))), /MATTER_STUBS: no module of matter\.js matches/);
});

t.test('the built bundle: no controller, colour lights in a file of their own', async (t) => {
  const core = join(DIST, 'matter.cjs');
  if (!existsSync(core)) return t.fail(`${core} is missing: run \`npm run build\` (make test does)`);
  const text = readFileSync(core, 'latin1');
  // The compliance ledger's address is in matter.js's DclConfig, which only the stubbed DCL modules import.
  t.notOk(text.includes('dcl.csa-iot.org'), 'no distributed compliance ledger');
  t.equal(text.split("hearth's Matter bridge has no ").length, 2, 'one stub maker for the stubs (CaseClient among them)');
  t.ok(text.includes('("CaseClient")'), 'the client side of CASE is a stub');
  t.ok(existsSync(join(DIST, 'matter-color.cjs')), 'colour lights have their own file');
  // A lazy group's clusters join the data model with their file (LAZY_MODELS, scripts/matter-model.mjs).
  const doorLock = 'name:"DoorLock",id:257';
  t.notOk(text.includes(doorLock), "the Door Lock cluster's model is not in matter.cjs");
  t.ok(readFileSync(join(DIST, 'matter-door-lock.cjs'), 'latin1').includes(doorLock), 'but in matter-door-lock.cjs');
  t.notOk(
    /\bclass \w+ extends [\w$]+\.with\([^)]*"ColorTemperature"/.test(text) || text.includes('"syncColorTemperatureWithLevel"'),
    "Color Control's server is not in matter.cjs",
  );
});
