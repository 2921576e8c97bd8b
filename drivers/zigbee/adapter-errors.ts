/**
 * Turns an adapter start failure into one sentence a user can act on, naming the adapter and port (busy or
 * missing) or the adapter and its firmware (unsupported), instead of herdsman's low-level text alone.
 */
export function describeStartFailure(err: unknown, adapter: string | undefined, port: string | undefined): string {
  const text = err instanceof Error ? err.message : String(err);
  const which = adapter ?? 'auto-detected';
  const where = port ?? 'the auto-detected port';
  if (/discovery|No valid USB adapter found|Unable to find/i.test(text) && port === undefined) {
    return `Zigbee adapter: no stick was detected over USB (${text}); give adapter and port (/dev/serial/by-id/...) in the zigbee: section`;
  }
  if (/cannot lock port|resource temporarily unavailable|EBUSY|port is (already )?open|Access denied/i.test(text)) {
    return `Zigbee adapter ${which} on ${where}: the port is busy (another program, such as zigbee2mqtt, has it open): ${text}`;
  }
  if (/no such file|ENOENT|cannot open|not found|No valid USB adapter found|unable to find/i.test(text)) {
    return `Zigbee adapter ${which} on ${where}: the port is missing (is the stick plugged in? ls -l /dev/serial/by-id/): ${text}`;
  }
  if (/version|firmware|not supported|unsupported|protocol/i.test(text)) {
    return `Zigbee adapter ${which} on ${where}: the firmware is not supported (${text}); flash a firmware herdsman supports for ${which}`;
  }
  return `Zigbee adapter ${which} on ${where} did not start: ${text}`;
}
