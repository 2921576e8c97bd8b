#!/usr/bin/env bash
# Installs (or updates) hearth as a systemd service on a Raspberry Pi (Raspberry Pi OS / Debian), without
# building on the Pi (docs/install.md):
#   sudo ./install.sh hearth-<version>.tar.gz   a release tarball, made on any machine with `make release`
#   sudo scripts/install.sh                      from inside an unpacked release, or from a checkout
# From a checkout it makes the same release first (scripts/release.mjs --stage) from the checkout's build when
# that is newer than every source file, else from a build in a scratch copy: that one needs the dev packages
# (some 560 MB on disk, 660 MB of memory at its peak), so on a 1 GB board prefer a tarball.
# Safe to run again: it replaces the code in /opt/hearth as a whole, keeps /etc/hearth and /var/lib/hearth as
# they are, and restarts the service.
#
#   /opt/hearth                       the code (root-owned, read-only for the service)
#   /etc/hearth/configuration.yaml    the configuration (config/starter.yaml is copied if there is none)
#   /var/lib/hearth                   tokens and stored state (created by systemd, owned by hearth)
#   /usr/local/bin/hearth             the command line (`hearth --help`)
set -euo pipefail

PREFIX=/opt/hearth
CONFIG_DIR=/etc/hearth
CONFIG_FILE="$CONFIG_DIR/configuration.yaml"
DATA_DIR=/var/lib/hearth
UNIT_FILE=/etc/systemd/system/hearth.service
USER_NAME=hearth
GROUPS_WANTED=(gpio i2c dialout)
SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { printf '\033[1mhearth:\033[0m %s\n' "$*"; }
die() { printf 'hearth: %s\n' "$*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || die "run this as root: sudo $0 $*"
[[ $# -le 1 ]] || die "usage: sudo $0 [hearth-<version>.tar.gz]"
command -v systemctl >/dev/null || die "systemd is required"

# Node 20.19 or a later 20.x: uWebSockets.js ships native binaries for Node 20 and hearth refuses its slow fallback.
NODE_BIN="$(command -v node || true)"
[[ -n "$NODE_BIN" ]] || die "Node.js 20 is not installed. Install Node 20.19 or later 20.x (e.g. from NodeSource's node_20.x repository), then run this again."
NODE_BIN="$(readlink -f "$NODE_BIN")"
NODE_VERSION="$("$NODE_BIN" -p 'process.versions.node')"
IFS=. read -r NODE_MAJOR NODE_MINOR _ <<<"$NODE_VERSION"
if [[ "$NODE_MAJOR" -ne 20 || "$NODE_MINOR" -lt 19 ]]; then
  die "hearth needs Node 20.19 or a later 20.x; $NODE_BIN is $NODE_VERSION"
fi
# npm (the one beside this node): needed from a checkout, and to build the optional native packages; a release
# runs without it.
NPM_BIN="$(dirname "$NODE_BIN")/npm"
[[ -x "$NPM_BIN" ]] || NPM_BIN="$(command -v npm || true)"
say "using Node $NODE_VERSION at $NODE_BIN"
PATH="$(dirname "$NODE_BIN"):$PATH"
export PATH

# Scratch space in /var/tmp, not /tmp: Trixie mounts /tmp in memory, and a build there would take the Pi's RAM.
WORK="$(mktemp -d /var/tmp/hearth-install.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# From a checkout: a release staged from its build (a fresh one in a scratch copy when the sources are newer).
stage_checkout() {
  [[ -n "$NPM_BIN" ]] || die "npm is not installed (Debian: apt install npm; NodeSource's nodejs includes it)"
  local build="$SOURCE_DIR" built="$SOURCE_DIR/dist/hearth/cli.js"
  if [[ ! -f "$built" || -n "$(find "$SOURCE_DIR/src" "$SOURCE_DIR/drivers" "$SOURCE_DIR/package-lock.json" -newer "$built" -print -quit)" ]]; then
    say "building in $WORK/build with the dev packages (a few minutes on a Pi; a tarball from \`make release\` avoids this)"
    mkdir -p "$WORK/build"
    tar -C "$SOURCE_DIR" --exclude=./.git --exclude=./node_modules --exclude=./dist --exclude=./data --exclude=./.tap --exclude=./coverage -cf - . |
      tar -C "$WORK/build" -xf -
    (cd "$WORK/build" && "$NPM_BIN" ci --no-audit --no-fund && "$NPM_BIN" run build)
    build="$WORK/build"
  else
    say "using the build in $SOURCE_DIR/dist (newer than every source file)"
  fi
  "$NODE_BIN" "$build/scripts/release.mjs" --stage "$WORK/release"
  RELEASE="$WORK/release"
}

if [[ $# -eq 1 ]]; then
  [[ -f "$1" ]] || die "$1: no such file"
  say "unpacking $1"
  tar -C "$WORK" -xzf "$1"
  RELEASE="$(find "$WORK" -mindepth 2 -maxdepth 2 -name release.json -printf '%h\n' | head -n 1)"
  [[ -n "$RELEASE" ]] || die "$1 is not a hearth release (it has no release.json)"
elif [[ -f "$SOURCE_DIR/release.json" ]]; then
  RELEASE="$SOURCE_DIR"
elif [[ -f "$SOURCE_DIR/package.json" && -f "$SOURCE_DIR/tsconfig.json" ]]; then
  stage_checkout
else
  die "$SOURCE_DIR is neither a hearth release nor a checkout; give the tarball: sudo $0 hearth-<version>.tar.gz"
fi
VERSION="$("$NODE_BIN" -p 'require(process.argv[1]).version' "$RELEASE/package.json")"

# The service user, and the device groups it joins (created when missing, so the unit's SupplementaryGroups= resolve).
for group in "${GROUPS_WANTED[@]}"; do
  getent group "$group" >/dev/null || { groupadd --system "$group"; say "created group $group"; }
done
GROUP_LIST="$(IFS=,; echo "${GROUPS_WANTED[*]}")"
if ! id "$USER_NAME" >/dev/null 2>&1; then
  useradd --system --user-group --groups "$GROUP_LIST" --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin \
    --comment "hearth home-automation hub" "$USER_NAME"
  say "created system user $USER_NAME in the groups $GROUP_LIST"
fi

# Which groups a user lacks of GROUPS_WANTED (empty when none).
missing_groups() {
  local have missing=()
  have=" $(id -nG "$1" 2>/dev/null) "
  for group in "${GROUPS_WANTED[@]}"; do [[ "$have" == *" $group "* ]] || missing+=("$group"); done
  (IFS=,; echo "${missing[*]}")
}
# Device nodes the groups do not cover (another distribution's udev rules): the hub could not open them.
foreign_devices() {
  local dev group
  for dev in /dev/gpiochip* /dev/i2c-* /dev/ttyUSB* /dev/ttyACM* /dev/ttyAMA*; do
    [[ -c "$dev" ]] || continue
    group="$(stat -c %G "$dev")"
    [[ " ${GROUPS_WANTED[*]} " == *" $group "* ]] || echo "  $dev (group $group)"
  done
}

# The code, put together beside the installed one and swapped in once it is whole.
NEW="$PREFIX.new"
say "installing hearth $VERSION"
rm -rf "$NEW"
mkdir -p "$(dirname "$PREFIX")"
cp -a "$RELEASE/." "$NEW"
chown -R root:root "$NEW"
chmod 0755 "$NEW"

# onoff (the sysfs GPIO backend) and i2c-bus are optional native packages that come as C++ sources: built
# here when the tools are (about a minute on a Pi), else left unbuilt. GPIO then goes through the character
# device (drivers/gpio/gpio-helper.py, python3 only), which every Raspberry Pi OS kernel since Bullseye has.
if [[ -n "$NPM_BIN" ]] && command -v python3 >/dev/null && command -v make >/dev/null && command -v g++ >/dev/null; then
  say "building the optional native packages (onoff's epoll, i2c-bus)"
  (cd "$NEW" && "$NPM_BIN" rebuild epoll i2c-bus --no-audit --no-fund --loglevel=error) ||
    say "they did not build: GPIO uses the character device, and I2C chips stay unavailable (the rest works)"
else
  say "no build tools (python3, make, g++): the optional sysfs GPIO (onoff) and I2C (i2c-bus) packages stay unbuilt;"
  say "GPIO uses the character device. For I2C: sudo apt install python3 make g++, then run this again"
fi
(cd "$NEW" && "$NODE_BIN" -e 'import("uWebSockets.js").then(m => { if (typeof (m.default ?? m).SSLApp !== "function") { console.error("uWebSockets.js has no native binary for this board"); process.exit(1) } })') ||
  die "uWebSockets.js could not load its native binary for Node $NODE_VERSION on $(uname -m)"

# The command line, for token management and config checks.
cat >/usr/local/bin/hearth <<EOF
#!/bin/sh
exec "$NODE_BIN" "$PREFIX/dist/hearth/cli.js" "\$@"
EOF
chmod 0755 /usr/local/bin/hearth

# The configuration: kept if present, else the starter with this Pi's time zone.
mkdir -p "$CONFIG_DIR"
if [[ ! -f "$CONFIG_FILE" ]]; then
  TZ_NAME="$(timedatectl show --property=Timezone --value 2>/dev/null || cat /etc/timezone 2>/dev/null || true)"
  [[ "$TZ_NAME" =~ ^[A-Za-z0-9_+/-]+$ ]] || TZ_NAME=UTC
  sed "s#^  time_zone: .*#  time_zone: $TZ_NAME#" "$NEW/config/starter.yaml" >"$CONFIG_FILE"
  say "wrote a starter configuration to $CONFIG_FILE"
fi
# Readable by the service through its group, by nobody else (secrets.yaml lives here too).
chown root:"$USER_NAME" "$CONFIG_DIR"
chmod 0750 "$CONFIG_DIR"
find "$CONFIG_DIR" -maxdepth 1 -type f -name '*.yaml' -exec chown root:"$USER_NAME" {} + -exec chmod 0640 {} +

runuser -u "$USER_NAME" -- "$NODE_BIN" "$NEW/dist/hearth/cli.js" check-config --config "$CONFIG_FILE" ||
  die "fix the configuration above, then run this again (the installed version is unchanged)"

# The swap: the running hub's code goes aside (the process keeps what it has loaded) until the new one runs.
# The new files reach the SD card first, so a power cut after the swap finds them whole.
sync
if [[ -e "$PREFIX" ]]; then
  rm -rf "$PREFIX.old"
  mv "$PREFIX" "$PREFIX.old"
fi
mv "$NEW" "$PREFIX"

# The unit, with the path of this Node.
sed "s#/usr/bin/node #$NODE_BIN #" "$PREFIX/systemd/hearth.service" >"$UNIT_FILE.tmp"
mv "$UNIT_FILE.tmp" "$UNIT_FILE"
chmod 0644 "$UNIT_FILE"
systemctl daemon-reload
systemctl enable hearth.service >/dev/null
# Type=notify: this returns once hearth reports ready (the API listens), or fails if it does not start.
if ! systemctl restart hearth.service; then
  [[ -d "$PREFIX.old" ]] && say "the previous version is in $PREFIX.old; to go back: sudo rm -rf $PREFIX && sudo mv $PREFIX.old $PREFIX && sudo systemctl restart hearth"
  die "the service did not start; see: journalctl -u hearth -n 50"
fi
rm -rf "$PREFIX.old"

say "device groups: ${GROUPS_WANTED[*]} (GPIO: gpio; I2C: i2c; serial ports and Zigbee sticks: dialout)"
say "the service gets them from the unit (SupplementaryGroups=); user $USER_NAME is in: $(id -nG "$USER_NAME")"
hearth_missing="$(missing_groups "$USER_NAME")"
[[ -z "$hearth_missing" ]] || say "for \`sudo -u $USER_NAME hearth ...\` on devices, also: usermod -aG $hearth_missing $USER_NAME"
if [[ -n "${SUDO_USER:-}" && "$SUDO_USER" != root ]]; then
  you_missing="$(missing_groups "$SUDO_USER")"
  [[ -z "$you_missing" ]] || say "to run hearth yourself (make run) with devices, add yourself: sudo usermod -aG $you_missing $SUDO_USER (then log in again)"
fi
foreign="$(foreign_devices)"
[[ -z "$foreign" ]] || say "these devices belong to other groups, so the service cannot open them (add a udev rule or SupplementaryGroups= in a drop-in):"$'\n'"$foreign"

PORT="$(sed -n 's/^  port: *\([0-9]*\).*/\1/p' "$CONFIG_FILE" | head -n1)"
say "hearth $VERSION is running: http://$(hostname -I 2>/dev/null | awk '{print $1}'):${PORT:-8123}/api/"
cat <<EOF

Create an access token (stop the hub meanwhile, so it does not overwrite the token file):
  sudo systemctl stop hearth
  sudo -u $USER_NAME hearth token create --data $DATA_DIR --name my-laptop
  sudo systemctl start hearth
Then:  curl -H "Authorization: Bearer <token>" http://localhost:${PORT:-8123}/api/states
Logs:  journalctl -u hearth -f
EOF
