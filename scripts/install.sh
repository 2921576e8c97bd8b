#!/usr/bin/env bash
# Installs (or updates) hearth as a systemd service on a Raspberry Pi (Raspberry Pi OS / Debian).
# Run from a checkout:  sudo scripts/install.sh
# Safe to run again: it updates the code in /opt/hearth, keeps /etc/hearth and /var/lib/hearth as they are,
# and restarts the service.
#
#   /opt/hearth                       the code (root-owned, read-only for the service)
#   /etc/hearth/configuration.yaml    the configuration (a starter is written if there is none)
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

[[ $(id -u) -eq 0 ]] || die "run this as root: sudo $0"
[[ -f "$SOURCE_DIR/package.json" && -f "$SOURCE_DIR/systemd/hearth.service" ]] || die "run this from a hearth checkout ($SOURCE_DIR is not one)"
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
NPM_BIN="$(command -v npm || true)"
[[ -n "$NPM_BIN" ]] || die "npm is not installed (it comes with Node.js)"
say "using Node $NODE_VERSION at $NODE_BIN"

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

# The code. Build outputs and local state of the checkout are not copied.
say "copying $SOURCE_DIR to $PREFIX"
mkdir -p "$PREFIX"
if command -v rsync >/dev/null; then
  rsync -a --delete --exclude .git --exclude node_modules --exclude dist --exclude data --exclude .tap --exclude coverage \
    "$SOURCE_DIR/" "$PREFIX/"
else
  find "$PREFIX" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
  tar -C "$SOURCE_DIR" --exclude=.git --exclude=node_modules --exclude=dist --exclude=data --exclude=.tap --exclude=coverage -cf - . |
    tar -C "$PREFIX" -xf -
fi
chown -R root:root "$PREFIX"

# Build with the dev dependencies (TypeScript), then drop them: the service runs on the runtime ones only.
say "installing dependencies and building (this takes a few minutes on a Pi)"
cd "$PREFIX"
PATH="$(dirname "$NODE_BIN"):$PATH"
export PATH
"$NPM_BIN" ci --no-audit --no-fund
"$NPM_BIN" run build
"$NPM_BIN" prune --omit=dev --no-audit --no-fund
"$NODE_BIN" -e 'import("uWebSockets.js").then(m => { if (typeof (m.default ?? m).SSLApp !== "function") { console.error("uWebSockets.js has no native binary for this board"); process.exit(1) } })' ||
  die "uWebSockets.js could not load its native binary for Node $NODE_VERSION on $(uname -m)"

# The command line, for token management and config checks.
cat >/usr/local/bin/hearth <<EOF
#!/bin/sh
exec "$NODE_BIN" "$PREFIX/dist/hearth/cli.js" "\$@"
EOF
chmod 0755 /usr/local/bin/hearth

# The configuration: kept if present, else a starter with this Pi's time zone.
mkdir -p "$CONFIG_DIR"
if [[ ! -f "$CONFIG_FILE" ]]; then
  TZ_NAME="$(timedatectl show --property=Timezone --value 2>/dev/null || cat /etc/timezone 2>/dev/null || echo UTC)"
  cat >"$CONFIG_FILE" <<EOF
# hearth configuration. Check it with: hearth check-config --config $CONFIG_FILE
# Secrets go in $CONFIG_DIR/secrets.yaml and are used as: password: !secret wifi_password
# For simulated devices to try things out, see $PREFIX/config/demo.yaml.
hub:
  name: Home
  time_zone: ${TZ_NAME:-UTC}
  unit_system: metric
  port: 8123
EOF
  say "wrote a starter configuration to $CONFIG_FILE"
fi
# Readable by the service through its group, by nobody else (secrets.yaml lives here too).
chown root:"$USER_NAME" "$CONFIG_DIR"
chmod 0750 "$CONFIG_DIR"
find "$CONFIG_DIR" -maxdepth 1 -type f -name '*.yaml' -exec chown root:"$USER_NAME" {} + -exec chmod 0640 {} +

runuser -u "$USER_NAME" -- "$NODE_BIN" "$PREFIX/dist/hearth/cli.js" check-config --config "$CONFIG_FILE" ||
  die "fix the configuration above, then run this again (or: systemctl restart hearth)"

# The unit, with the path of this Node.
sed "s#/usr/bin/node #$NODE_BIN #" "$SOURCE_DIR/systemd/hearth.service" >"$UNIT_FILE.tmp"
mv "$UNIT_FILE.tmp" "$UNIT_FILE"
chmod 0644 "$UNIT_FILE"
systemctl daemon-reload
systemctl enable hearth.service >/dev/null
# Type=notify: this returns once hearth reports ready (the API listens), or fails if it does not start.
systemctl restart hearth.service || die "the service did not start; see: journalctl -u hearth -n 50"

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
say "hearth is running: http://$(hostname -I 2>/dev/null | awk '{print $1}'):${PORT:-8123}/api/"
cat <<EOF

Create an access token (stop the hub meanwhile, so it does not overwrite the token file):
  sudo systemctl stop hearth
  sudo -u $USER_NAME hearth token create --data $DATA_DIR --name my-laptop
  sudo systemctl start hearth
Then:  curl -H "Authorization: Bearer <token>" http://localhost:${PORT:-8123}/api/states
Logs:  journalctl -u hearth -f
EOF
