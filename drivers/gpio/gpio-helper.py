#!/usr/bin/env python3
"""hearth's GPIO helper: holds GPIO lines through the kernel's character device (GPIO uAPI v2, Linux 5.10+).

Only the Python standard library (struct, fcntl, select): nothing to compile or install on Raspberry Pi OS,
and the same code on libgpiod 1.6 (Bookworm) and 2.x (Trixie) systems, since it talks to the kernel directly.
The lines are requested with the consumer name "hearth" (what `gpioinfo` shows).

Protocol: one JSON object per line. The hub writes requests {"id", "op", ...} on stdin; the helper answers
{"id", "ok": true, ...} or {"id", "ok": false, "error", "code"} and pushes {"event": "edge", "handle",
"value"} for input edges. Levels are physical (1 = high); the hub applies invert_logic.

Fail-safe: every output is requested with a safe level. When stdin closes (the hub exited, crashed or was
killed -9: the kernel closes the pipe) or on SIGTERM/SIGINT/SIGHUP, every output is driven to its safe level
and released, and the helper exits. It never outlives the hub holding a relay on.
"""

import errno
import json
import os
import select
import signal
import struct
import sys

# <linux/gpio.h>, uAPI v2. Sizes are identical on armhf, arm64 and x86_64 (the structs are padded by design).
GPIO_GET_CHIPINFO_IOCTL = 0x8044B401  # _IOR(0xB4, 0x01, struct gpiochip_info), 68 bytes
GPIO_V2_GET_LINE_IOCTL = 0xC250B407  # _IOWR(0xB4, 0x07, struct gpio_v2_line_request), 592 bytes
GPIO_V2_LINE_GET_VALUES_IOCTL = 0xC010B40E  # _IOWR(0xB4, 0x0E, struct gpio_v2_line_values), 16 bytes
GPIO_V2_LINE_SET_VALUES_IOCTL = 0xC010B40F  # _IOWR(0xB4, 0x0F, struct gpio_v2_line_values), 16 bytes
CHIPINFO_SIZE = 68
LINE_REQUEST_SIZE = 592
LINE_EVENT_SIZE = 48

FLAG_INPUT = 1 << 2
FLAG_OUTPUT = 1 << 3
FLAG_EDGE_RISING = 1 << 4
FLAG_EDGE_FALLING = 1 << 5
FLAG_BIAS_PULL_UP = 1 << 8
FLAG_BIAS_PULL_DOWN = 1 << 9
FLAG_BIAS_DISABLED = 1 << 10
ATTR_ID_OUTPUT_VALUES = 2
EVENT_RISING_EDGE = 1

BIAS_FLAGS = {None: 0, "pull_up": FLAG_BIAS_PULL_UP, "pull_down": FLAG_BIAS_PULL_DOWN, "disabled": FLAG_BIAS_DISABLED}
CONSUMER = b"hearth"

# struct gpio_v2_line_request field offsets
REQ_CONSUMER = 256
REQ_CONFIG = 288  # struct gpio_v2_line_config: flags u64, num_attrs u32, padding[5], attrs[10] of 24 bytes
REQ_ATTRS = REQ_CONFIG + 32
REQ_NUM_LINES = 560
REQ_FD = 588


class RealKernel:
    """The kernel boundary: tests replace it (HEARTH_GPIO_FAKE_KERNEL) with a simulated chip that decodes the same bytes."""

    def list_chips(self):
        return sorted("/dev/" + n for n in os.listdir("/dev") if n.startswith("gpiochip") and n[8:].isdigit())

    def open(self, path):
        return os.open(path, os.O_RDWR | os.O_CLOEXEC)

    def ioctl(self, fd, request, buf):
        import fcntl

        fcntl.ioctl(fd, request, buf, True)

    def read(self, fd, size):
        return os.read(fd, size)

    def close(self, fd):
        os.close(fd)


def load_kernel():
    path = os.environ.get("HEARTH_GPIO_FAKE_KERNEL")
    if not path:
        return RealKernel()
    import importlib.util

    spec = importlib.util.spec_from_file_location("hearth_fake_kernel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Kernel()


def pack_request(offset, direction, value, bias, edges):
    buf = bytearray(LINE_REQUEST_SIZE)
    struct.pack_into("=I", buf, 0, offset)
    buf[REQ_CONSUMER : REQ_CONSUMER + len(CONSUMER)] = CONSUMER
    flags = BIAS_FLAGS[bias]
    num_attrs = 0
    if direction == "out":
        flags |= FLAG_OUTPUT
        # The level is part of the request, so the line never glitches through another value.
        struct.pack_into("=IIQQ", buf, REQ_ATTRS, ATTR_ID_OUTPUT_VALUES, 0, value & 1, 1)
        num_attrs = 1
    else:
        flags |= FLAG_INPUT
        if edges:
            flags |= FLAG_EDGE_RISING | FLAG_EDGE_FALLING
    struct.pack_into("=QI", buf, REQ_CONFIG, flags, num_attrs)
    struct.pack_into("=I", buf, REQ_NUM_LINES, 1)
    return buf


class Line:
    def __init__(self, fd, direction, safe, edges, name):
        self.fd = fd
        self.direction = direction
        self.safe = safe
        self.edges = edges
        self.name = name


class Helper:
    def __init__(self, kernel):
        self.kernel = kernel
        self.lines = {}
        self.next_handle = 1
        self.pending = b""

    def send(self, obj):
        data = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
        while data:
            data = data[os.write(1, data) :]

    def chips(self, _msg):
        found, unreadable = [], []
        for path in self.kernel.list_chips():
            try:
                fd = self.kernel.open(path)
            except OSError as err:
                # A chip being removed, or one this user may not open: the hub says which when none is left.
                unreadable.append({"path": path, "code": errno.errorcode.get(err.errno, "EIO"), "error": err.strerror or str(err)})
                continue
            try:
                buf = bytearray(CHIPINFO_SIZE)
                self.kernel.ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, buf)
                name, label, lines = struct.unpack_from("=32s32sI", buf)
                found.append({"path": path, "name": cstr(name), "label": cstr(label), "lines": lines})
            finally:
                self.kernel.close(fd)
        return {"chips": found, "unreadable": unreadable}

    def request(self, msg):
        direction = msg["direction"]
        value = int(msg.get("value") or 0)
        edges = bool(msg.get("edges")) and direction == "in"
        buf = pack_request(int(msg["line"]), direction, value, msg.get("bias"), edges)
        chip = self.kernel.open(msg["chip"])
        try:
            self.kernel.ioctl(chip, GPIO_V2_GET_LINE_IOCTL, buf)
        finally:
            # The line request has its own file descriptor; the chip's is not needed any more.
            self.kernel.close(chip)
        (fd,) = struct.unpack_from("=i", buf, REQ_FD)
        handle = self.next_handle
        self.next_handle += 1
        safe = msg.get("safe")
        self.lines[handle] = Line(fd, direction, None if safe is None else int(safe), edges, "%s line %s" % (msg["chip"], msg["line"]))
        return {"handle": handle}

    def line(self, msg):
        line = self.lines.get(msg.get("handle"))
        if line is None:
            raise OSError(errno.EBADF, "no such line handle (released)")
        return line

    def get(self, msg):
        buf = bytearray(struct.pack("=QQ", 0, 1))
        self.kernel.ioctl(self.line(msg).fd, GPIO_V2_LINE_GET_VALUES_IOCTL, buf)
        (bits,) = struct.unpack_from("=Q", buf)
        return {"value": bits & 1}

    def set(self, msg):
        set_value(self.kernel, self.line(msg).fd, int(msg["value"]))
        return {}

    def release(self, msg):
        line = self.lines.pop(msg.get("handle"), None)
        if line is not None:
            self.let_go(line)
        return {}

    def let_go(self, line):
        """Drives an output to its safe level, then gives the line back to the kernel."""
        try:
            if line.direction == "out" and line.safe is not None:
                set_value(self.kernel, line.fd, line.safe)
        except OSError as err:
            log("could not drive %s to its safe level: %s" % (line.name, err))
        finally:
            try:
                self.kernel.close(line.fd)
            except OSError:
                pass

    def let_go_all(self):
        lines, self.lines = list(self.lines.values()), {}
        for line in lines:
            self.let_go(line)

    def handle_message(self, raw):
        try:
            msg = json.loads(raw)
        except ValueError:
            log("ignoring a line that is not JSON")
            return
        op = getattr(self, msg.get("op", ""), None) if msg.get("op") in OPS else None
        try:
            if op is None:
                raise OSError(errno.EINVAL, "unknown operation %r" % msg.get("op"))
            answer = op(msg)
            answer.update({"id": msg.get("id"), "ok": True})
        except OSError as err:
            code = errno.errorcode.get(err.errno, "EIO") if err.errno else "EIO"
            answer = {"id": msg.get("id"), "ok": False, "code": code, "error": err.strerror or str(err)}
        except (KeyError, TypeError, ValueError) as err:
            answer = {"id": msg.get("id"), "ok": False, "code": "EINVAL", "error": "bad request: %s" % err}
        self.send(answer)

    def read_events(self, handle, line):
        try:
            data = self.kernel.read(line.fd, LINE_EVENT_SIZE * 16)
        except OSError as err:
            if err.errno in (errno.EAGAIN, errno.EINTR):
                return
            # The line is gone (a chip unbound); the hub finds out and requests it again.
            self.lines.pop(handle, None)
            self.let_go(line)
            self.send({"event": "error", "handle": handle, "error": err.strerror or str(err)})
            return
        for at in range(0, len(data) - LINE_EVENT_SIZE + 1, LINE_EVENT_SIZE):
            (kind,) = struct.unpack_from("=I", data, at + 8)
            self.send({"event": "edge", "handle": handle, "value": 1 if kind == EVENT_RISING_EDGE else 0})

    def run(self):
        while True:
            watched = {line.fd: handle for handle, line in self.lines.items() if line.edges}
            ready, _, _ = select.select([0] + list(watched), [], [])
            for fd in ready:
                if fd == 0:
                    chunk = os.read(0, 65536)
                    if not chunk:
                        return  # the hub is gone
                    self.pending += chunk
                    while b"\n" in self.pending:
                        raw, self.pending = self.pending.split(b"\n", 1)
                        if raw.strip():
                            self.handle_message(raw)
                elif watched.get(fd) in self.lines:
                    self.read_events(watched[fd], self.lines[watched[fd]])


OPS = ("chips", "request", "get", "set", "release")


def set_value(kernel, fd, value):
    kernel.ioctl(fd, GPIO_V2_LINE_SET_VALUES_IOCTL, bytearray(struct.pack("=QQ", value & 1, 1)))


def cstr(raw):
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def log(text):
    sys.stderr.write("gpio-helper: %s\n" % text)
    sys.stderr.flush()


class Stop(Exception):
    pass


def on_signal(_signum, _frame):
    raise Stop()


def main():
    helper = Helper(load_kernel())
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    # A hub that died mid-write must not take the helper with it before the outputs are safe.
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    try:
        helper.run()
    except (Stop, BrokenPipeError):
        pass
    finally:
        # Signals would interrupt the safe writes; from here on they are ignored.
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        helper.let_go_all()


if __name__ == "__main__":
    main()
