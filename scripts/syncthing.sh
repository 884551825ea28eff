#!/usr/bin/env bash
# Two real Syncthing instances on this machine share a folder holding an archive document and
# a package document. Loopback only: no global or local discovery, no relays, no NAT, no usage
# reporting. Each side edits both documents while the link is down; when it is back, Syncthing
# keeps conflict copies (beside the archive; inside the package, file by file). `poddoc info`
# names them, its suggested command (pasted) merges them in and removes them, the result syncs
# back, and both sides end with the same documents, every edit, and no copy left behind.
#
#   scripts/syncthing.sh PATH-TO-PODDOC
#
# Skipped (exit 0, saying so) only when Debian's syncthing is not installed and
# scripts/bootstrap.sh could not install it.
set -euo pipefail
poddoc=$(realpath "${1:?usage: scripts/syncthing.sh PATH-TO-PODDOC}")
if ! command -v syncthing >/dev/null; then
  echo "syncthing test: skipped: syncthing is not installed (scripts/bootstrap.sh installs Debian's package; it could not here)"
  exit 0
fi

work=$(mktemp -d /tmp/poddoc-syncthing-XXXXXX)
export STNODEFAULTFOLDER=1 STNOUPGRADE=1
base=$((20000 + $$ % 20000))
declare -A id listen gui
listen[a]=$base; listen[b]=$((base + 1)); gui[a]=$((base + 2)); gui[b]=$((base + 3))

fail() { echo "syncthing test: FAILED: $*" >&2; for x in a b; do echo "--- $x log" >&2; tail -20 "$work/$x/log" >&2 || true; done; exit 1; }
stop() { [ -f "$work/$1/pid" ] && { kill "$(cat "$work/$1/pid")" 2>/dev/null || true; wait "$(cat "$work/$1/pid")" 2>/dev/null || true; rm -f "$work/$1/pid"; }; }
cleanup() { stop a; stop b; rm -rf "$work"; }
trap cleanup EXIT
start() { syncthing serve --home="$work/$1/home" --no-browser --no-restart --logfile="$work/$1/log" >/dev/null 2>&1 & echo $! > "$work/$1/pid"; }
# poddoc as each side's user: its own home and state folder.
on() { local side=$1; shift; HOME="$work/$side/user" XDG_STATE_HOME="$work/$side/state" "$poddoc" "$@"; }
# The folders' files, without Syncthing's own, as "path checksum" lines.
listing() { (cd "$work/$1/folder" && find . -type f ! -path './.stfolder*' ! -name '.syncthing.*' ! -name '*.poddoc-lock' ! -name '.poddoc-lock' -exec sha256sum {} + | sort -k2); }
# Waits until both folders hold the same files (and, given a pattern, one of them matches it).
settle() {
  local want=${1:-} i
  for i in $(seq 1 120); do
    if [ "$(listing a)" = "$(listing b)" ] && { [ -z "$want" ] || listing a | grep -q -- "$want"; }; then return 0; fi
    sleep 0.5
  done
  fail "the two folders did not settle${want:+ with $want}: $(diff <(listing a) <(listing b) | head -20)"
}

for x in a b; do
  mkdir -p "$work/$x/home" "$work/$x/folder" "$work/$x/user" "$work/$x/state"
  syncthing generate --home="$work/$x/home" --no-default-folder --skip-port-probing >/dev/null 2>&1
  id[$x]=$(syncthing serve --home="$work/$x/home" --device-id)
done
for x in a b; do
  cat > "$work/$x/home/config.xml" <<XML
<configuration version="36">
  <folder id="poddoc" label="poddoc" path="$work/$x/folder" type="sendreceive" rescanIntervalS="1" fsWatcherEnabled="false">
    <device id="${id[a]}"></device>
    <device id="${id[b]}"></device>
    <minDiskFree unit="%">0</minDiskFree>
    <maxConflicts>10</maxConflicts>
  </folder>
  <device id="${id[a]}" name="a" compression="metadata"><address>tcp://127.0.0.1:${listen[a]}</address></device>
  <device id="${id[b]}" name="b" compression="metadata"><address>tcp://127.0.0.1:${listen[b]}</address></device>
  <gui enabled="true" tls="false"><address>127.0.0.1:${gui[$x]}</address><apikey>poddoc-test-$x</apikey></gui>
  <options>
    <listenAddress>tcp://127.0.0.1:${listen[$x]}</listenAddress>
    <globalAnnounceEnabled>false</globalAnnounceEnabled>
    <localAnnounceEnabled>false</localAnnounceEnabled>
    <relaysEnabled>false</relaysEnabled>
    <natEnabled>false</natEnabled>
    <urAccepted>-1</urAccepted>
    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
    <crashReportingEnabled>false</crashReportingEnabled>
    <startBrowser>false</startBrowser>
    <minHomeDiskFree unit="%">0</minHomeDiskFree>
  </options>
</configuration>
XML
done

archive=Notes.poddoc.tar.zst
package=Plans.poddoc
start a; start b
on a new "$work/a/folder/$archive" --kind outline >/dev/null
on a outline add "$work/a/folder/$archive" Work >/dev/null
on a new "$work/a/folder/$package" --kind outline >/dev/null
on a outline add "$work/a/folder/$package" Work >/dev/null
settle "$package/StoreContent/persistentStore"
echo "syncthing test: both sides hold the two documents"

# The link goes down; each side edits both documents, the laptop (b) last.
stop b
for doc in "$archive" "$package"; do on a outline add "$work/a/folder/$doc" "From the desktop" >/dev/null; done
sleep 1.1
for doc in "$archive" "$package"; do on b outline add "$work/b/folder/$doc" "From the laptop" >/dev/null; done
sleep 2 # the desktop scans its edits
start b
settle "sync-conflict"
listing a | grep -q "/Notes\..*sync-conflict-" || fail "no conflict copy beside the archive: $(listing a)"
echo "syncthing test: Syncthing kept conflict copies: $(listing a | grep -o '[^/]*sync-conflict[^ ]*' | tr '\n' ' ')"

# poddoc names each copy; its suggested command, pasted, merges it in and removes it.
for doc in "$archive" "$package"; do
  said=$(cd "$work/a/folder" && on a info "$doc")
  command=$(printf '%s\n' "$said" | grep -E "conflict copy|sync conflict" | grep -o '`poddoc merge [^`]*`' | head -1 | tr -d '`') \
    || fail "info names no conflict for $doc: $said"
  [ -n "$command" ] || fail "info suggests no merge for $doc: $said"
  echo "syncthing test: pasting: $command"
  (cd "$work/a/folder" && HOME="$work/a/user" XDG_STATE_HOME="$work/a/state" PATH="$(dirname "$poddoc"):$PATH" bash -c "$command") \
    || fail "the suggested merge failed for $doc"
  # A package can keep more than one file (its metadata too): merging the store removes them all.
done
settle
if listing a | grep -q "sync-conflict"; then fail "a conflict copy was left behind: $(listing a | grep sync-conflict)"; fi

# Both sides: the same documents, every edit, checks ok.
for x in a b; do
  for doc in "$archive" "$package"; do
    tree=$(on "$x" outline tree "$work/$x/folder/$doc")
    for title in Work "From the desktop" "From the laptop"; do
      printf '%s\n' "$tree" | grep -q "$title" || fail "$x/$doc lacks \"$title\": $tree"
    done
    [ "$(printf '%s\n' "$tree" | grep -c .)" = 3 ] || fail "$x/$doc holds an item twice: $tree"
    on "$x" check "$work/$x/folder/$doc" >/dev/null || fail "$x/$doc fails its check"
  done
done
hash() { on "$1" info "$work/$1/folder/$2" --json | grep -o '"storeHash":"[^"]*"'; }
for doc in "$archive" "$package"; do
  [ "$(hash a "$doc")" = "$(hash b "$doc")" ] || fail "$doc differs between the two sides"
done
echo "syncthing test: ok (both sides hold every edit of both documents, equal hashes, no copy left)"
