#!/usr/bin/env bash
# Makes sure Debian's `chromium` is installed and prints its version. The browser tests drive it
# with playwright-core; `npx playwright install` is not used because it downloads a browser build
# from outside the package registries, which the project's machines cannot reach, whereas Debian's
# package comes through apt like any other dependency.
#
#   bash scripts/browser/chromium.sh
#
# Idempotent: when /usr/bin/chromium is already there it only prints the version line. Otherwise it
# installs the package non-interactively (as root, or through `sudo -n` when that works without a
# password), running `apt-get update` only when the install failed for lack of package lists, so a
# machine with fresh lists does not pay for an update. Every apt call has a time limit, so a
# stalled mirror fails the run with a message instead of hanging it.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
# The tests start the binary behind the launcher script directly (shared/testing/src/browser.ts).
CHROMIUM_BINARY=/usr/lib/chromium/chromium
APT_TIMEOUT_SECONDS="${CHROMIUM_APT_TIMEOUT_SECONDS:-900}"

fail() {
  echo "chromium.sh: $*" >&2
  exit 1
}

if [ ! -x "$CHROMIUM" ]; then
  command -v apt-get >/dev/null || fail "$CHROMIUM is missing and there is no apt-get to install Debian's chromium package"
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n) # -n: never wait at a password prompt nobody will answer
  else
    fail "$CHROMIUM is missing; install it as root: apt-get install chromium"
  fi

  log="$(mktemp)"
  trap 'rm -f "$log"' EXIT
  # DPkg::Lock::Timeout: another apt run (an unattended upgrade) holding the lock is waited for
  # instead of failing at once; the outer timeout still bounds the whole call.
  apt() {
    timeout "$APT_TIMEOUT_SECONDS" "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get -q -y -o DPkg::Lock::Timeout=120 "$@" >>"$log" 2>&1
  }
  # The only recommendation is chromium-sandbox, unused: the tests run with --no-sandbox.
  install() { apt install --no-install-recommends chromium; }

  echo "chromium.sh: installing Debian's chromium package (a few minutes)" >&2
  if ! install; then
    # Missing or stale lists show as an unknown package or as 404s for superseded versions; only
    # then is an update worth its time. Anything else (no space, a broken dpkg) is reported as is.
    if grep -qE "Unable to locate package|has no installation candidate|404 +Not Found|Failed to fetch" "$log"; then
      apt update || { tail -n 20 "$log" >&2; fail "apt-get update failed (or took over ${APT_TIMEOUT_SECONDS}s); see the lines above"; }
      install || { tail -n 20 "$log" >&2; fail "apt-get install chromium failed after apt-get update; see the lines above"; }
    else
      tail -n 20 "$log" >&2
      fail "apt-get install chromium failed (or took over ${APT_TIMEOUT_SECONDS}s); see the lines above"
    fi
  fi
  [ -x "$CHROMIUM" ] || fail "apt-get installed chromium but $CHROMIUM is not there"
fi
[ -x "$CHROMIUM_BINARY" ] || fail "$CHROMIUM is there but its binary $CHROMIUM_BINARY is not"

# --version does not start a browser, but a broken install (a missing library) fails here, not in
# the middle of a test.
version="$(timeout 30 "$CHROMIUM_BINARY" --version 2>/dev/null)" || fail "$CHROMIUM is installed but '$CHROMIUM_BINARY --version' failed"
echo "$version"
