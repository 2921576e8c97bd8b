export { MQTT_OWNER, MqttComponent, type MqttComponentOptions } from './component.js';
export { MQTT_SECTION_VALIDATORS, type MqttConfig, parseMqttSection } from './config.js';
export type { ReceivedMessage } from './connection.js';
export { fallbackRenderer, type TemplateRenderer } from './template.js';
export { topicMatches } from './topics.js';
