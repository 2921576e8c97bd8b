/**
 * Events the hub fires itself with typed data (state objects, service descriptions) that its listeners rely on.
 * A client may subscribe to them but not fire them: a forged `state_changed` would feed plain JSON to code that
 * expects state objects. REST, WebSocket and the mobile_app webhook refuse them alike.
 */
export const HUB_EVENT_TYPES: ReadonlySet<string> = new Set([
  'state_changed',
  'state_reported',
  'service_registered',
  'service_removed',
  'call_service',
  'automation_triggered',
  'script_started',
]);
