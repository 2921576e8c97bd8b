// Changes to matter.js's own code in hearth/matter.cjs for the time and garbage of each Matter report
// (docs/performance.md, "Matter state-change latency"). Part of MATTER_PATCHES (scripts/matter-patches.mjs): the build
// fails when matter.js no longer has the text a change replaces.

export const REPORT_PATCHES = [
  {
    // Every message sent builds its debug-log diagnostic (Message.diagnosticsOf: a few dictionaries, flag strings and
    // hex) before the logger looks at its level: about 0.1 ms of the hub's CPU and more garbage per Matter report
    // (a CPU profile of bench/matter.ts), where the hub logs matter.js at warnings. It is now built only when a log
    // destination takes this facility's debug messages, by the test Logger's #log applies (DEBUG is 0; a message
    // below the destination's level, or its level for the facility, is skipped).
    file: 'protocol/dist/esm/protocol/MessageChannel.js',
    from: '    logger.debug("Message", Mark.OUTBOUND, Message.diagnosticsOf(exchange ?? this.session, message, logContext));\n',
    to:
      '    for (const name in Logger.destinations) {\n' +
      '      const dest = Logger.destinations[name];\n' +
      '      if ((dest.facilityLevels?.MessageChannel ?? dest.level) > 0) continue;\n' +
      '      logger.debug("Message", Mark.OUTBOUND, Message.diagnosticsOf(exchange ?? this.session, message, logContext));\n' +
      '      break;\n' +
      '    }\n',
  },
  // what the hub allocates for each Matter report. bench/matter.ts, the hub's allocations sampled with the
  // collected objects: some 380 KB a change, a young collection every third change with the unit's 1 MB semi-space.
  // matter.js's DataWriter, which every TLV value and message header is written through, made a Uint8Array for each
  // number it wrote (and for one of two bytes or more a DataView, which moves the array's bytes off the heap) and
  // joined them at the end; the control byte of each TLV element went through a bitmap schema, an object literal on
  // the way in and an object with a defined property on the way out. The writer now writes into one array that
  // doubles as it fills (the whole class is replaced: the build fails if matter.js's differs); the control byte is a
  // shift and a mask, as the schema computes it.
  {
    file: 'general/dist/esm/util/DataWriter.js',
    // matter.js 0.17's class, whole.
    from: `class DataWriter {
  littleEndian;
  length = 0;
  chunks = new Array();
  constructor(endian) {
    this.littleEndian = endian === Endian.Little;
  }
  writeUInt8(value) {
    this.chunks.push(new Uint8Array([toNumber(value)]));
    this.length += 1;
  }
  writeUInt16(value) {
    const chunk = new Uint8Array(2);
    new DataView(chunk.buffer, 0, 2).setUint16(0, toNumber(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 2;
  }
  writeUInt32(value) {
    const chunk = new Uint8Array(4);
    new DataView(chunk.buffer, 0, 4).setUint32(0, toNumber(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 4;
  }
  writeUInt64(value) {
    const chunk = new Uint8Array(8);
    new DataView(chunk.buffer, 0, 8).setBigUint64(0, BigInt(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 8;
  }
  writeInt8(value) {
    const chunk = new Uint8Array(1);
    new DataView(chunk.buffer, 0, 1).setInt8(0, toNumber(value));
    this.chunks.push(chunk);
    this.length += 1;
  }
  writeInt16(value) {
    const chunk = new Uint8Array(2);
    new DataView(chunk.buffer, 0, 2).setInt16(0, toNumber(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 2;
  }
  writeInt32(value) {
    const chunk = new Uint8Array(4);
    new DataView(chunk.buffer, 0, 4).setInt32(0, toNumber(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 4;
  }
  writeInt64(value) {
    const chunk = new Uint8Array(8);
    new DataView(chunk.buffer, 0, 8).setBigInt64(0, BigInt(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 8;
  }
  writeFloat(value) {
    const chunk = new Uint8Array(4);
    new DataView(chunk.buffer, 0, 4).setFloat32(0, value, this.littleEndian);
    this.chunks.push(chunk);
    this.length += 4;
  }
  writeDouble(value) {
    const chunk = new Uint8Array(8);
    new DataView(chunk.buffer, 0, 8).setFloat64(0, value, this.littleEndian);
    this.chunks.push(chunk);
    this.length += 8;
  }
  writeByteArray(value) {
    this.chunks.push(Bytes.of(value));
    this.length += value.byteLength;
  }
  toByteArray() {
    if (this.chunks.length === 0) return new Uint8Array(0);
    if (this.chunks.length === 1) return this.chunks[0];
    const result = new Uint8Array(this.length);
    let offset = 0;
    this.chunks.forEach((chunk) => {
      result.set(chunk, offset);
      offset += chunk.byteLength;
    });
    this.chunks.length = 0;
    this.chunks.push(result);
    return result;
  }
}
`,
    to: `const scratch = new DataView(new ArrayBuffer(8));
const scratchBytes = new Uint8Array(scratch.buffer);
class DataWriter {
  littleEndian;
  length = 0;
  #bytes = new Uint8Array(32);
  constructor(endian) {
    this.littleEndian = endian === Endian.Little;
  }
  // Where the next size bytes go, the array grown first: read this.#bytes only after calling it.
  #reserve(size) {
    const at = this.length;
    const need = at + size;
    if (need > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(need, this.#bytes.length * 2));
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.length = need;
    return at;
  }
  // A typed array's conversions are modular: signed and unsigned values of one size share their bytes.
  #integer(value, size) {
    const v = toNumber(value) >>> 0;
    const at = this.#reserve(size);
    const bytes = this.#bytes;
    for (let i = 0; i < size; i++) bytes[this.littleEndian ? at + i : at + size - 1 - i] = v >>> (8 * i);
  }
  #fromScratch(size) {
    const at = this.#reserve(size);
    for (let i = 0; i < size; i++) this.#bytes[at + i] = scratchBytes[i];
  }
  writeUInt8(value) {
    const at = this.#reserve(1);
    this.#bytes[at] = toNumber(value);
  }
  writeUInt16(value) {
    this.#integer(value, 2);
  }
  writeUInt32(value) {
    this.#integer(value, 4);
  }
  writeUInt64(value) {
    scratch.setBigUint64(0, BigInt(value), this.littleEndian);
    this.#fromScratch(8);
  }
  writeInt8(value) {
    const at = this.#reserve(1);
    this.#bytes[at] = toNumber(value);
  }
  writeInt16(value) {
    this.#integer(value, 2);
  }
  writeInt32(value) {
    this.#integer(value, 4);
  }
  writeInt64(value) {
    scratch.setBigInt64(0, BigInt(value), this.littleEndian);
    this.#fromScratch(8);
  }
  writeFloat(value) {
    scratch.setFloat32(0, value, this.littleEndian);
    this.#fromScratch(4);
  }
  writeDouble(value) {
    scratch.setFloat64(0, value, this.littleEndian);
    this.#fromScratch(8);
  }
  writeByteArray(value) {
    const bytes = Bytes.of(value);
    const at = this.#reserve(bytes.byteLength);
    this.#bytes.set(bytes, at);
  }
  toByteArray() {
    return this.#bytes.slice(0, this.length);
  }
}
`,
  },
  ...[
    [0, 'Anonymous'],
    [1, 'ContextSpecific'],
    [2, 'CommonProfile16'],
    [3, 'CommonProfile32'],
    [6, 'FullyQualified48'],
    [7, 'FullyQualified64'],
  ].map(([control, name]) => ({
    file: 'types/dist/esm/tlv/TlvCodec.js',
    from: `writer.writeUInt8(ControlByteSchema.encode({ tagControl: ${control} /* ${name} */, typeLength }));`,
    to: `writer.writeUInt8(${control} /* ${name} */ << 5 | typeLength);`,
  })),
  {
    file: 'types/dist/esm/tlv/TlvCodec.js',
    from: '    const { tagControl, typeLength } = ControlByteSchema.decode(reader.readUInt8());\n',
    to: '    const controlByte = reader.readUInt8();\n    const tagControl = controlByte >> 5;\n    const typeLength = controlByte & 31;\n',
  },
  // what a report's garbage keeps alive until a full collection. bench/matter.ts with the hub's allocations sampled
  // without those its young collections freed (the inspector's sampling heap profiler): some 50 KB a change live
  // through two young collections and so moved to the old generation, which grew by about 44 KB a change and was
  // collected whole every 200 or so changes. The largest part is diagnostics matter.js makes whether or not anything
  // ever shows them, held by what lives for the length of an exchange (its timers, the node's record of who is
  // acting on it):
  // - Diagnostic.elapsed(), made for every timer started (matter.js's Time.register) and every activity begun, an
  //   object literal with two getters and a method: three functions and the object's accessors each time. It is now an
  //   instance of a class with those on its prototype (the same properties, read the same way).
  {
    file: 'general/dist/esm/log/Diagnostic.js',
    from: `  function elapsed() {
    return {
      startedAt: Time.nowUs,
      get time() {
        return Millis(Time.nowUs - this.startedAt);
      },
      toString() {
        return Duration.format(this.time);
      },
      get [Diagnostic2.value]() {
        return this.toString();
      }
    };
  }
`,
    to: `  class Elapsed {
    startedAt = Time.nowUs;
    get time() {
      return Millis(Time.nowUs - this.startedAt);
    }
    toString() {
      return Duration.format(this.time);
    }
    get [Diagnostic2.value]() {
      return this.toString();
    }
  }
  function elapsed() {
    return new Elapsed();
  }
`,
  },
  // - NodeActivity.begin, once for each transaction of the bridge's writes and each report's read: an object literal with
  //   two getters and four functions of its own (two of them closures over the activity). Its actors are now
  //   instances of a class with the same members, on its prototype (matter.js calls `close` and the disposer on the
  //   actor, or binds it first, as LocalActorContext does), and the activity's part of closing one is a function made
  //   once per activity.
  {
    file: 'node/dist/esm/behavior/context/NodeActivity.js',
    from: `  begin(description, onClose) {
    const elapsed = Diagnostic.elapsed();
    const actor = {
      stack: [description],
      get elapsed() {
        return elapsed;
      },
      get [Diagnostic.value]() {
        const result = Array();
        for (const frame of this.stack) {
          if (result.length) {
            result.push("\\u25B8");
          }
          result.push(frame);
        }
        return result;
      },
      frame(description2) {
        this.stack.push(description2);
        return {
          [Symbol.dispose]: () => {
            this.stack.pop();
          }
        };
      },
      close: () => {
        onClose?.();
        this.#actors.delete(actor);
        if (!this.#actors.size) {
          this.#inactive.emit(true);
        }
      },
      [Symbol.dispose]: () => {
        actor.close();
      }
    };
    this.#actors.add(actor);
`,
    to: `  #end = (actor) => {
    this.#actors.delete(actor);
    if (!this.#actors.size) {
      this.#inactive.emit(true);
    }
  };
  begin(description, onClose) {
    const actor = new NodeActivityActor(description, onClose, this.#end);
    this.#actors.add(actor);
`,
  },
  {
    file: 'node/dist/esm/behavior/context/NodeActivity.js',
    from: 'class NodeActivity {\n',
    to: `class NodeActivityActor {
  stack;
  #elapsed = Diagnostic.elapsed();
  #onClose;
  #end;
  constructor(description, onClose, end) {
    this.stack = [description];
    this.#onClose = onClose;
    this.#end = end;
  }
  get elapsed() {
    return this.#elapsed;
  }
  get [Diagnostic.value]() {
    const result = Array();
    for (const frame of this.stack) {
      if (result.length) {
        result.push("\\u25B8");
      }
      result.push(frame);
    }
    return result;
  }
  frame(description2) {
    this.stack.push(description2);
    return {
      [Symbol.dispose]: () => {
        this.stack.pop();
      }
    };
  }
  close() {
    this.#onClose?.();
    this.#end(this);
  }
  [Symbol.dispose]() {
    this.close();
  }
}
class NodeActivity {
`,
  },
  // - ClusterState.readState, once for each cluster a report reads: a copy of matter.js's read-only context without its
  //   interactionComplete (an object rest of some dozen properties), then that copy and the report's session spread
  //   into one more object. The read-only context is made once for the process (LocalActorContext.ReadOnly), so is
  //   its copy now: only the spread into the session's object is made each time.
  {
    file: 'node/dist/esm/node/integration/ProtocolService.js',
    from: `  readState(session) {
    const { interactionComplete: _ic, ...readOnly } = LocalActorContext.ReadOnly;
    const supervisorSession = {
      ...readOnly,
      ...session
    };
`,
    to: `  static #readOnly;
  readState(session) {
    if (ClusterState.#readOnly === void 0) {
      const { interactionComplete: _ic, ...readOnly } = LocalActorContext.ReadOnly;
      ClusterState.#readOnly = readOnly;
    }
    const supervisorSession = {
      ...ClusterState.#readOnly,
      ...session
    };
`,
  },
  // a subscription's report after a change looked at every endpoint of the node for a controller that
  // subscribed to all of them (Apple Home, Google Home and matter.js's controller do), made a generator for each to
  // find it had changed nothing, and read the changed one: some 17 KB of the hub's allocation per report with 100
  // bridged endpoints, growing with each. The wildcard read now passes over an endpoint with nothing to report.
  {
    file: 'protocol/dist/esm/action/server/AttributeReadResponse.js',
    from: '        for (const endpoint2 of this.node) {\n          yield* this.readEndpointForWildcard(endpoint2, path);\n',
    to: '        for (const endpoint2 of this.node) {\n          if (this.skipsEndpoint?.(endpoint2)) continue;\n          yield* this.readEndpointForWildcard(endpoint2, path);\n',
  },
  {
    file: 'protocol/dist/esm/action/server/AttributeSubscriptionResponse.js',
    // What its readEndpointForWildcard returns at once for (it reads nothing else of the endpoint).
    from: '  *readEndpointForWildcard(endpoint, path) {\n    this.#currentEndpointDirty = this.#dirty[endpoint.id];\n',
    to: '  skipsEndpoint(endpoint) {\n    return this.#dirty[endpoint.id] === void 0;\n  }\n  *readEndpointForWildcard(endpoint, path) {\n    this.#currentEndpointDirty = this.#dirty[endpoint.id];\n',
  },
];
