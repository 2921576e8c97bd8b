/**
 * Six more device kinds for the Zigbee benchmark, beside the test catalogue's six, so its network is a mix of twelve
 * models over five vendor modules of the converters (as a real hub's is): a colour bulb and a motion sensor (Philips),
 * a leak and a smoke sensor and a smart plug (Xiaomi), an on/off remote (IKEA). Cluster lists as the real devices'
 * simple descriptors give them; each resolves by its model id. Bench only: the tests pair the catalogue's devices.
 */
import type { SimDevice } from '../test/fixtures/zigbee/catalogue.js';

const HA = 0x0104;
const ZLL = 0xc05e;

export const EXTRA_KINDS: readonly SimDevice[] = [
  {
    key: 'colour',
    ieee: '0x0017880100c1d2e3',
    networkAddress: 0x1b01,
    modelID: 'LCT015',
    manufacturerName: 'Philips',
    powerSource: 1,
    type: 'Router',
    manufacturerCode: 4107,
    endpoints: [
      {
        id: 11,
        profileId: HA,
        deviceId: 0x0210,
        inputClusters: [0x0000, 0x0003, 0x0004, 0x0005, 0x0006, 0x0008, 0x0300, 0x1000, 0xfc01],
        outputClusters: [0x0019],
      },
    ],
    attributes: { 11: { genOnOff: { onOff: 0 }, genLevelCtrl: { currentLevel: 200 }, lightingColorCtrl: { colorCapabilities: 31 } } },
    expectedModel: '9290012573A',
  },
  {
    key: 'motion',
    ieee: '0x0017880100d2e3f4',
    networkAddress: 0x1b02,
    modelID: 'SML001',
    manufacturerName: 'Philips',
    powerSource: 3,
    type: 'EndDevice',
    manufacturerCode: 4107,
    endpoints: [
      {
        id: 1,
        profileId: ZLL,
        deviceId: 0x0850,
        inputClusters: [0x0000],
        outputClusters: [0x0000, 0x0003, 0x0004, 0x0005, 0x0006, 0x0008, 0x0300],
      },
      { id: 2, profileId: HA, deviceId: 0x0107, inputClusters: [0x0000, 0x0001, 0x0003, 0x0406, 0x0400, 0x0402], outputClusters: [0x0019] },
    ],
    attributes: { 2: { msOccupancySensing: { occupancy: 0 }, msIlluminanceMeasurement: { measuredValue: 12000 } } },
    expectedModel: '9290012607',
  },
  {
    key: 'leak',
    ieee: '0x00158d0001e3f4a5',
    networkAddress: 0x1b03,
    modelID: 'lumi.sensor_wleak.aq1',
    manufacturerName: 'LUMI',
    powerSource: 3,
    type: 'EndDevice',
    manufacturerCode: 4151,
    endpoints: [{ id: 1, profileId: HA, deviceId: 0x0402, inputClusters: [0x0000, 0x0003, 0x0001, 0x0500], outputClusters: [0x0019] }],
    expectedModel: 'SJCGQ11LM',
  },
  {
    key: 'smoke',
    ieee: '0x00158d0001f4a5b6',
    networkAddress: 0x1b04,
    modelID: 'lumi.sensor_smoke',
    manufacturerName: 'LUMI',
    powerSource: 3,
    type: 'EndDevice',
    manufacturerCode: 4151,
    endpoints: [
      { id: 1, profileId: HA, deviceId: 0x0402, inputClusters: [0x0000, 0x0003, 0x0012, 0x0500, 0x000c, 0x0001], outputClusters: [0x0019] },
    ],
    expectedModel: 'JTYJ-GD-01LM/BW',
  },
  {
    key: 'remote',
    ieee: '0x000b57fffea5b6c7',
    networkAddress: 0x1b05,
    modelID: 'TRADFRI on/off switch',
    manufacturerName: 'IKEA of Sweden',
    powerSource: 3,
    type: 'EndDevice',
    manufacturerCode: 4476,
    endpoints: [
      {
        id: 1,
        profileId: HA,
        deviceId: 0x0820,
        inputClusters: [0x0000, 0x0001, 0x0003, 0x0009, 0x0020, 0x1000, 0xfc7c],
        outputClusters: [0x0003, 0x0004, 0x0006, 0x0008, 0x0019, 0x0102, 0x1000],
      },
    ],
    expectedModel: 'E1743',
  },
  {
    key: 'lumiplug',
    ieee: '0x00158d0001b6c7d8',
    networkAddress: 0x1b06,
    modelID: 'lumi.plug',
    manufacturerName: 'LUMI',
    powerSource: 1,
    type: 'Router',
    manufacturerCode: 4151,
    endpoints: [
      {
        id: 1,
        profileId: HA,
        deviceId: 0x0051,
        inputClusters: [0x0000, 0x0004, 0x0003, 0x0006, 0x0010, 0x0005, 0x000a, 0x0001, 0x0002],
        outputClusters: [0x0019, 0x000a],
      },
      { id: 2, profileId: HA, deviceId: 0x0009, inputClusters: [0x000c], outputClusters: [0x000c, 0x0004] },
      { id: 3, profileId: HA, deviceId: 0x0053, inputClusters: [0x000c], outputClusters: [0x000c] },
    ],
    attributes: { 1: { genOnOff: { onOff: 1 } } },
    expectedModel: 'ZNCZ02LM',
  },
];
