/**
 * Frames as the sensors send them, built from their datasheets independently of the driver's decoders.
 */

/** Plantower PMS5003 (data manual, "transport protocol, active mode"): 32 bytes. */
export function pms5003Frame(values: { pm1: number; pm25: number; pm10: number }, options: { corrupt?: boolean } = {}): Buffer {
  const frame = Buffer.alloc(32);
  frame.writeUInt8(0x42, 0);
  frame.writeUInt8(0x4d, 1);
  frame.writeUInt16BE(28, 2);
  // Data 1-3: CF=1 "standard particle"; data 4-6: under atmospheric environment; 7-12: particle counts.
  const words = [values.pm1, values.pm25, values.pm10, values.pm1, values.pm25, values.pm10, 1500, 420, 80, 9, 2, 1, 0];
  words.forEach((w, i) => {
    frame.writeUInt16BE(w, 4 + 2 * i);
  });
  let sum = 0;
  for (let i = 0; i < 30; i++) sum += frame.readUInt8(i);
  frame.writeUInt16BE((sum + (options.corrupt ? 1 : 0)) & 0xffff, 30);
  return frame;
}

/** Nova Fitness SDS011 (laser dust sensor control protocol V1.3): 10 bytes, PM values in tenths of µg/m³. */
export function sds011Frame(values: { pm25: number; pm10: number }, options: { corrupt?: boolean; id?: number } = {}): Buffer {
  const frame = Buffer.alloc(10);
  frame.writeUInt8(0xaa, 0);
  frame.writeUInt8(0xc0, 1);
  frame.writeUInt16LE(Math.round(values.pm25 * 10), 2);
  frame.writeUInt16LE(Math.round(values.pm10 * 10), 4);
  frame.writeUInt16LE(options.id ?? 0xa1b2, 6);
  let sum = 0;
  for (let i = 2; i < 8; i++) sum += frame.readUInt8(i);
  frame.writeUInt8((sum + (options.corrupt ? 1 : 0)) & 0xff, 8);
  frame.writeUInt8(0xab, 9);
  return frame;
}
