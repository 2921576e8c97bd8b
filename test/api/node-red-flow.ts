/**
 * The Node-RED flow the end-to-end test runs: node-red-contrib-home-assistant-websocket nodes configured
 * as the editor saves them (latest config versions of 0.80.x), each wired to a function node that hands
 * what it got to the test through `global.get('hearthSink')`.
 */

export const SERVER_ID = 'hearth_server';
/** A second server node, used by no other node, that connects through the test's recording relay. */
export const RECORDED_SERVER_ID = 'recorded_server';
export const CURRENT_STATE_ID = 'current_state';
export const ACTION_ID = 'toggle_action';
export const EVENTS_STATE_ID = 'events_state';
export const RENDER_TEMPLATE_ID = 'render_template';

const TAB = 'hearth_tab';

/** What a capture node forwards: which probe saw it, and the message or status. */
export type SinkKind = 'current-state' | 'action' | 'events-state' | 'render-template' | 'status' | 'error';

/** A function node that passes its input to the test's sink, tagged with `kind`. */
function probe(id: string, kind: SinkKind): Record<string, unknown> {
  return {
    id,
    type: 'function',
    z: TAB,
    name: `probe ${kind}`,
    func: `global.get('hearthSink')(${JSON.stringify(kind)}, RED.util.cloneMessage(msg));\nreturn null;`,
    outputs: 0,
    timeout: 0,
    noerr: 0,
    initialize: '',
    finalize: '',
    libs: [],
    wires: [],
  };
}

/** A Home Assistant server config node as the editor saves it (config version 6). */
function serverNode(id: string, name: string): Record<string, unknown> {
  return {
    id,
    type: 'server',
    name,
    version: 6,
    addon: false,
    rejectUnauthorizedCerts: true,
    ha_boolean: ['y', 'yes', 'true', 'on', 'home', 'open'],
    connectionDelay: false,
    cacheJson: true,
    heartbeat: false,
    heartbeatInterval: 30,
    areaSelector: 'friendlyName',
    deviceSelector: 'friendlyName',
    entitySelector: 'friendlyName',
    statusSeparator: 'at: ',
    statusYear: 'hidden',
    statusMonth: 'short',
    statusDay: 'numeric',
    statusHourCycle: 'h23',
    statusTimeFormat: 'h:m',
    enableGlobalContextStore: true,
  };
}

/**
 * flows.json: two server nodes (the nodes use the first; the second only connects, through the relay),
 * current state / action / events: state / render template nodes, and status and catch probes.
 */
export function hearthFlow(entityId: string, action: string): Record<string, unknown>[] {
  return [
    { id: TAB, type: 'tab', label: 'hearth', disabled: false, info: '' },
    serverNode(SERVER_ID, 'hearth'),
    serverNode(RECORDED_SERVER_ID, 'hearth (recorded)'),
    {
      id: CURRENT_STATE_ID,
      type: 'api-current-state',
      z: TAB,
      name: 'read switch',
      server: SERVER_ID,
      version: 3,
      outputs: 1,
      halt_if: '',
      halt_if_type: 'str',
      halt_if_compare: 'is',
      entity_id: entityId,
      state_type: 'str',
      blockInputOverrides: false,
      outputProperties: [
        { property: 'payload', propertyType: 'msg', value: '', valueType: 'entityState' },
        { property: 'data', propertyType: 'msg', value: '', valueType: 'entity' },
      ],
      for: '0',
      forType: 'num',
      forUnits: 'minutes',
      override_topic: false,
      state_location: 'payload',
      override_payload: 'msg',
      entity_location: 'data',
      override_data: 'msg',
      wires: [['probe_current_state']],
    },
    probe('probe_current_state', 'current-state'),
    {
      id: ACTION_ID,
      type: 'api-call-service',
      z: TAB,
      name: 'toggle switch',
      server: SERVER_ID,
      version: 7,
      debugenabled: false,
      action,
      floorId: [],
      areaId: [],
      deviceId: [],
      entityId: [entityId],
      labelId: [],
      data: '',
      dataType: 'jsonata',
      mergeContext: '',
      mustacheAltTags: false,
      outputProperties: [{ property: 'payload', propertyType: 'msg', value: '', valueType: 'data' }],
      queue: 'none',
      blockInputOverrides: false,
      wires: [['probe_action']],
    },
    probe('probe_action', 'action'),
    {
      id: EVENTS_STATE_ID,
      type: 'server-state-changed',
      z: TAB,
      name: 'switch changed',
      server: SERVER_ID,
      version: 6,
      outputs: 1,
      exposeAsEntityConfig: '',
      entities: { entity: [entityId], substring: [], regex: [] },
      outputInitially: false,
      stateType: 'str',
      ifState: '',
      ifStateType: 'str',
      ifStateOperator: 'is',
      outputOnlyOnStateChange: true,
      for: '0',
      forType: 'num',
      forUnits: 'minutes',
      ignorePrevStateNull: false,
      ignorePrevStateUnknown: false,
      ignorePrevStateUnavailable: false,
      ignoreCurrentStateUnknown: false,
      ignoreCurrentStateUnavailable: false,
      outputProperties: [
        { property: 'payload', propertyType: 'msg', value: '', valueType: 'entityState' },
        { property: 'data', propertyType: 'msg', value: '', valueType: 'eventData' },
        { property: 'topic', propertyType: 'msg', value: '', valueType: 'triggerId' },
      ],
      wires: [['probe_events_state']],
    },
    probe('probe_events_state', 'events-state'),
    {
      // Renders through POST /api/template.
      id: RENDER_TEMPLATE_ID,
      type: 'api-render-template',
      z: TAB,
      name: 'render',
      server: SERVER_ID,
      version: 0,
      template: `{{ states('${entityId}') }} {{ state_attr('${entityId}', 'friendly_name') | upper }} {{ [1, 2] | sum }}`,
      resultsLocation: 'payload',
      resultsLocationType: 'msg',
      templateLocation: 'template',
      templateLocationType: 'msg',
      wires: [['probe_render_template']],
    },
    probe('probe_render_template', 'render-template'),
    { id: 'status_all', type: 'status', z: TAB, name: '', scope: null, wires: [['probe_status']] },
    probe('probe_status', 'status'),
    { id: 'catch_all', type: 'catch', z: TAB, name: '', scope: null, uncaught: false, wires: [['probe_error']] },
    probe('probe_error', 'error'),
  ];
}
