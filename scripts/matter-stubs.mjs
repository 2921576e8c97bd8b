import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

// matter.js's controller side in hearth/matter.cjs (scripts/bundle-matter.mjs): the bridge is a server and reaches no
// other node, yet a server node's modules refer to a controller's (ServerNode's `peers`, bindings to other nodes,
// over-the-air updates fetched from peers, the distributed compliance ledger a commissioner checks a device against,
// bulk data transfer for updates), so esbuild keeps some 300 KB of them, 15 % of the bundle, which V8 parses and
// partly builds as the bundle loads (docs/performance.md, "Matter bridge"). Each module below is replaced by one that
// exports the same names as stubs: a class whose construction, and any read of a property it does not have, throws
// "hearth's Matter bridge has no <name>" (the bridge's setup reports it as any failure; matter.js logs it when a
// peer's request reaches one). Plus test doubles that matter.js's own indexes export and esbuild keeps for their
// `extends` clauses. The build fails when a pattern matches no module, or a module has runtime code beside its one
// export list. The sources and the tests load matter.js whole from node_modules.
export const MATTER_STUBS = [
  // The controller: commissioning other nodes, their clients and interactions, discovering them.
  /protocol\/dist\/esm\/peer\/Controller\w+\.js$/,
  /protocol\/dist\/esm\/action\/client\/.*\.js$/,
  /protocol\/dist\/esm\/session\/(case\/CaseClient|pase\/PaseClient)\.js$/,
  /protocol\/dist\/esm\/certificate\/(DeviceAttestationValidator|CertificateAuthority)\.js$/,
  /node\/dist\/esm\/node\/client\/\w+\.js$/,
  /node\/dist\/esm\/node\/Client(Node|Group)\.js$/,
  /node\/dist\/esm\/behavior\/system\/commissioning\/CommissioningClient\.js$/,
  /node\/dist\/esm\/behavior\/system\/icd\/IcdClient\.js$/,
  /node\/dist\/esm\/behavior\/system\/network\/(NetworkClient|ClientNetworkRuntime)\.js$/,
  /node\/dist\/esm\/behavior\/system\/controller\/.*\.js$/,
  // Client behaviours (a cluster as a controller sees it on a peer), each a behaviour class with its cluster's model
  // as the bundle loaded, and the peer's physical properties read through them.
  /node\/dist\/esm\/behaviors\/[\w-]+\/\w+Client\.js$/,
  /node\/dist\/esm\/node\/NodePhysicalProperties\.js$/,
  // The distributed compliance ledger (over HTTPS) and over-the-air updates with their bulk data transfer.
  /protocol\/dist\/esm\/dcl\/\w+\.js$/,
  /protocol\/dist\/esm\/bdx\/.*\.js$/,
  /protocol\/dist\/esm\/ota\/\w+\.js$/,
  /node\/dist\/esm\/behavior\/system\/software-update\/\w+\.js$/,
  // Test doubles and matter.js's remote API's WebSocket client.
  /general\/dist\/esm\/fs\/MockFilesystem\.js$/,
  /general\/dist\/esm\/net\/http\/(MockHttpEndpointFactory|WebSocketClient)\.js$/,
  /protocol\/dist\/esm\/protocol\/ProtocolMocks\.js$/,
  /protocol\/dist\/esm\/fabric\/TestFabric\.js$/,
  // Semantic tags for endpoints' tag lists, which the bridge's endpoints do not have.
  /node\/dist\/esm\/tags\/\w+Tag\.js$/,
];

const slashed = (path) => path.replaceAll('\\', '/');

/** Whether `path` (a file of matter.js) is one of MATTER_STUBS. */
export const stubbed = (path) => !slashed(path).endsWith('/index.js') && MATTER_STUBS.some((re) => re.test(slashed(path)));

/** The names a module of matter.js's dist exports: its one closing `export { … };` (none for a module of types). */
export function exportedNames(text, path) {
  const list = /\nexport \{([^}]*)\};\s*(?:\/\/# sourceMappingURL=\S*\s*)?$/.exec(text);
  const code = list === null ? text : text.slice(0, list.index);
  if (/^export\s/m.test(code)) throw new Error(`MATTER_STUBS: ${path} exports other than by one closing list`);
  if (list === null) {
    if (/^\s*(?:import\s+\S|class\s|function\s|const\s|let\s|var\s)/m.test(code))
      throw new Error(`MATTER_STUBS: ${path} has code but no exports`);
    return [];
  }
  return list[1]
    .split(',')
    .map((s) =>
      s
        .trim()
        .split(/\s+as\s+/)
        .pop(),
    )
    .filter((name) => name !== undefined && name !== '');
}

// One copy of the stub maker for all the stubbed modules of a file.
const STUB_MODULE = 'hearth-matter-stub';
const STUB = `export function hearthStub(name) {
  const fail = (what) => { throw new Error("hearth's Matter bridge has no " + what); };
  const stub = class { constructor() { fail(name); } };
  return new Proxy(stub, { get: (target, key, receiver) => (key in target ? Reflect.get(target, key, receiver) : fail(name + "." + String(key))) });
}
`;

/** esbuild plugin: MATTER_STUBS in place of those modules; `used` collects the patterns that matched (see assertAllUsed). */
export const matterStubs = (used = new Set()) => ({
  name: 'matter-stubs',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^${STUB_MODULE}$`) }, () => ({ path: STUB_MODULE, namespace: STUB_MODULE }));
    b.onLoad({ filter: /.*/, namespace: STUB_MODULE }, () => ({ contents: STUB, loader: 'js' }));
    b.onLoad({ filter: /[\\/]node_modules[\\/]@matter[\\/].*\.js$/ }, async (args) => {
      if (!stubbed(args.path)) return undefined;
      for (const re of MATTER_STUBS) if (re.test(slashed(args.path))) used.add(re);
      const names = exportedNames(await readFile(args.path, 'utf8'), args.path);
      const stubs = names.map((name) => `export const ${name} = /* @__PURE__ */ hearthStub(${JSON.stringify(name)});`);
      const contents = names.length === 0 ? 'export {};\n' : `import { hearthStub } from "${STUB_MODULE}";\n${stubs.join('\n')}\n`;
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
});

// Optional servers of the endpoint types the bridge uses (clusters an endpoint of the type may add): the root's
// (localization, network diagnostics, time synchronization, ICD management, TLS and others), the aggregator's
// (Actions, Commissioner Control) and the sensors' (Boolean State Configuration). hearth's bridge adds none of them,
// yet each became a behaviour class with its cluster's model as the bundle loaded. They are stubs too: by file,
// [name, folder, and whether matter.js imports it on one line].
const OPTIONAL_SERVERS = {
  'endpoints/root.js': [
    ['LocalizationConfigurationServer', 'localization-configuration'],
    ['TimeFormatLocalizationServer', 'time-format-localization'],
    ['UnitLocalizationServer', 'unit-localization'],
    ['PowerSourceConfigurationServer', 'power-source-configuration'],
    ['NetworkCommissioningServer', 'network-commissioning'],
    ['DiagnosticLogsServer', 'diagnostic-logs', 'one line'],
    ['SoftwareDiagnosticsServer', 'software-diagnostics'],
    ['ThreadNetworkDiagnosticsServer', 'thread-network-diagnostics'],
    ['WiFiNetworkDiagnosticsServer', 'wi-fi-network-diagnostics'],
    ['EthernetNetworkDiagnosticsServer', 'ethernet-network-diagnostics'],
    ['TimeSynchronizationServer', 'time-synchronization'],
    ['IcdManagementServer', 'icd-management', 'one line'],
    ['TlsCertificateManagementServer', 'tls-certificate-management'],
    ['TlsClientManagementServer', 'tls-client-management'],
    ['TimeSynchronizationClient', 'time-synchronization'],
  ],
  'endpoints/aggregator.js': [
    ['ActionsServer', 'actions', 'one line'],
    ['CommissionerControlServer', 'commissioner-control'],
  ],
  'devices/contact-sensor.js': [['BooleanStateConfigurationServer', 'boolean-state-configuration']],
  'devices/occupancy-sensor.js': [['BooleanStateConfigurationServer', 'boolean-state-configuration']],
};

/** Changes to matter.js's code for the stubs (part of MATTER_PATCHES, scripts/matter-patches.mjs). */
export const STUB_PATCHES = [
  // A server node's `peers` (the other nodes it reaches as a controller, `node/client/Peers.js`) are stubbed above, yet
  // each server node reads them as it starts (its change notifications observe peers added): an empty set of peers.
  {
    file: 'node/dist/esm/node/ServerNode.js',
    from: 'import { Peers } from "./client/Peers.js";\n',
    to:
      'import { Observable as PeersObservable, ImplementationError as PeersError } from "@matter/general";\n' +
      'class Peers {\n  added = PeersObservable();\n  constructor(_owner) {}\n  initialize() {}\n  async close() {}\n' +
      '  get size() {\n    return 0;\n  }\n  [Symbol.iterator]() {\n    return [][Symbol.iterator]();\n  }\n' +
      '  get(_id) {\n    return void 0;\n  }\n  map(_fn) {\n    return [];\n  }\n' +
      '  forAddress(address) {\n    throw new PeersError("hearth\'s Matter bridge reaches no other node (" + address + ")");\n  }\n}\n',
  },
  // A subscription asks the node for its ICD management server (a long idle time lengthens the interval of its
  // reports), the one module beside the root that imported it: it asks by the behaviour's id now.
  {
    file: 'node/dist/esm/node/server/ServerSubscription.js',
    from: 'import { IcdManagementServer } from "#behaviors/icd-management";\n',
    to: '',
  },
  {
    file: 'node/dist/esm/node/server/ServerSubscription.js',
    from:
      '    if (node.maybeFeaturesOf(IcdManagementServer)?.longIdleTimeSupport !== true) {\n      return void 0;\n    }\n' +
      '    const idleModeDuration = node.maybeStateOf(IcdManagementServer)?.idleModeDuration;\n',
    to:
      '    const icd = node.behaviors.supported.icdManagement;\n' +
      '    if (icd === void 0 || node.maybeFeaturesOf(icd)?.longIdleTimeSupport !== true) {\n      return void 0;\n    }\n' +
      '    const idleModeDuration = node.maybeStateOf(icd)?.idleModeDuration;\n',
  },
  ...Object.entries(OPTIONAL_SERVERS).flatMap(([file, servers]) => [
    {
      file: `node/dist/esm/${file}`,
      from: 'import { MutableEndpoint } from "../endpoint/type/MutableEndpoint.js";\n',
      to: `import { hearthStub } from "${STUB_MODULE}";\nimport { MutableEndpoint } from "../endpoint/type/MutableEndpoint.js";\n`,
    },
    ...servers.map(([name, folder, oneLine]) => ({
      file: `node/dist/esm/${file}`,
      from: oneLine
        ? `import { ${name} as Base${name} } from "../behaviors/${folder}/${name}.js";\n`
        : `import {\n  ${name} as Base${name}\n} from "../behaviors/${folder}/${name}.js";\n`,
      to: `const Base${name} = hearthStub(${JSON.stringify(name)});\n`,
    })),
  ]),
];

/** Fails when one of MATTER_STUBS matched no module of a build: matter.js moved or renamed it. */
export function assertAllUsed(used) {
  const unused = MATTER_STUBS.filter((re) => !used.has(re));
  if (unused.length > 0) throw new Error(`MATTER_STUBS: no module of matter.js matches ${unused.join(', ')}; see scripts/matter-stubs.mjs`);
}
