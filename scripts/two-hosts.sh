#!/usr/bin/env bash
# Two hosts sharing poddoc documents (the "two hosts" row of docs/RELIABILITY.md): two network namespaces
# joined by a veth pair, each with its own HOME, TZ and locale.
#   host A (10.77.0.1) serves a pods document with `poddoc serve`;
#   host B (10.77.0.2) imports from it over the link, and the content matches A's exactly;
#   host A exports an archive; host B opens it from another path, checks that its logical
#   hash is A's, edits it (imports one more spec) and exports it; host A opens the result and
#   finds the edit, with every spec it had untouched.
# Needs root and iproute2 (`ip netns`); otherwise it says so and exits 0 (skipped).
# Usage: scripts/two-hosts.sh [path/to/poddoc]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
poddoc="$(realpath "${1:-$repo/.build/debug/poddoc}")"
sample="$repo/SampleDocuments/specs-2014-sample.json"

# Probe: a namespace with a veth pair and a working link, or skip.
probe() {
  ip netns add poddoc-probe 2> /dev/null || return 1
  ip netns exec poddoc-probe ip link add poddoc-probe-a type veth peer name poddoc-probe-b 2> /dev/null \
    && ip netns exec poddoc-probe ip link set lo up 2> /dev/null
  local ok=$?
  ip netns del poddoc-probe 2> /dev/null || true
  return $ok
}
if [ "$(id -u)" != 0 ] || ! command -v ip > /dev/null || ! probe; then
  echo "two-hosts: skipped (needs root, iproute2, network namespaces and veth pairs)"
  exit 0
fi

work="$(mktemp -d)"
A=poddoc-host-a B=poddoc-host-b
server=""
# Stops every process left in a namespace (the server, and anything a failure left behind).
stop_all() { ip netns pids "$1" 2> /dev/null | xargs -r kill 2> /dev/null || true; }
cleanup() {
  stop_all "$A"
  stop_all "$B"
  if [ -n "$server" ]; then wait "$server" 2> /dev/null || true; fi
  ip netns del "$A" 2> /dev/null || true
  ip netns del "$B" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The link: A 10.77.0.1 <-> B 10.77.0.2.
ip netns add "$A"
ip netns add "$B"
ip link add poddoc-veth-a type veth peer name poddoc-veth-b
ip link set poddoc-veth-a netns "$A"
ip link set poddoc-veth-b netns "$B"
ip -n "$A" addr add 10.77.0.1/24 dev poddoc-veth-a
ip -n "$B" addr add 10.77.0.2/24 dev poddoc-veth-b
for ns in "$A" "$B"; do ip -n "$ns" link set lo up; done
ip -n "$A" link set poddoc-veth-a up
ip -n "$B" link set poddoc-veth-b up

mkdir -p "$work/a/home" "$work/b/home/elsewhere"
# Each host: its namespace, its own HOME (so its own working copies), time zone and locale.
on_a() { (cd "$work/a" && ip netns exec "$A" env -i PATH="$PATH" HOME="$work/a/home" TZ=Europe/Paris LANG=C.UTF-8 LC_ALL=C.UTF-8 "$poddoc" "$@"); }
on_b() { (cd "$work/b" && ip netns exec "$B" env -i PATH="$PATH" HOME="$work/b/home" TZ=Pacific/Auckland LANG=POSIX LC_ALL=POSIX "$poddoc" "$@"); }
json_field() { sed -e "s/.*\"$1\":\"\\{0,1\\}\\([^\",}]*\\).*/\\1/"; }
fail() { echo "two-hosts: FAILED: $*" >&2; exit 1; }

echo "== host A: a pods document from the bundled sample, served on 10.77.0.1:8080"
on_a new Specs.poddoc --kind pods > /dev/null
on_a import Specs.poddoc --from "$sample" > /dev/null
hash_a="$(on_a check Specs.poddoc --json | json_field storeHash)"
# Started directly (`ip netns exec` execs poddoc), so that $! is the server itself.
(cd "$work/a" && exec ip netns exec "$A" env -i PATH="$PATH" HOME="$work/a/home" TZ=Europe/Paris LANG=C.UTF-8 LC_ALL=C.UTF-8 \
  "$poddoc" serve Specs.poddoc --host 10.77.0.1 --port 8080 --json > "$work/serve.json") &
server=$!
for _ in $(seq 100); do [ -s "$work/serve.json" ] && break; sleep 0.1; done
[ -s "$work/serve.json" ] || fail "poddoc serve did not start on host A"

echo "== host B: import over the link"
on_b new Copy.poddoc --kind pods > /dev/null
on_b import Copy.poddoc --from http://10.77.0.1:8080/specs > /dev/null
on_a export Specs.poddoc "$work/a/specs.json" --format json > /dev/null
on_b export Copy.poddoc "$work/b/specs.json" --format json > /dev/null
cmp -s "$work/a/specs.json" "$work/b/specs.json" || fail "the specs imported on host B differ from host A's"
stop_all "$A"; wait "$server" || true; server=""
specs_count() { "$@" --json | sed -e 's/.*"specs":\([0-9]*\).*/\1/'; }
before="$(specs_count on_a info Specs.poddoc)"
echo "   the same $before specs on both hosts"

echo "== host A: export an archive; host B: open it from another path, check, edit, export"
on_a export Specs.poddoc Specs.poddoc.tar.zst --format archive > /dev/null
cp "$work/a/Specs.poddoc.tar.zst" "$work/b/home/elsewhere/Received.poddoc.tar.zst"
hash_b="$(on_b check home/elsewhere/Received.poddoc.tar.zst --json | json_field storeHash)"
[ -n "$hash_a" ] && [ "$hash_a" = "$hash_b" ] || fail "logical hash on A ($hash_a) and on B ($hash_b) differ"
echo "   logical hash equal on both hosts: $hash_a"
cat > "$work/b/probe.json" <<'JSON'
{"number_of_pages": 1, "result": [{"name": "TwoHostsProbe", "version": "1.0.0", "summary": "Added on host B",
  "homepage": "https://example.org/probe", "license": "MIT", "authors": {"Host B": "b@example.org"},
  "source": {"git": "https://example.org/probe.git", "tag": "1.0.0"}, "platforms": {"ios": "8.0"}}]}
JSON
on_b import home/elsewhere/Received.poddoc.tar.zst --from probe.json > /dev/null
on_b export home/elsewhere/Received.poddoc.tar.zst Edited.poddoc.tar.zst --format archive > /dev/null

echo "== host A: open B's archive and find the edit"
cp "$work/b/Edited.poddoc.tar.zst" "$work/a/Edited.poddoc.tar.zst"
on_a check Edited.poddoc.tar.zst > /dev/null || fail "B's archive does not pass check on host A"
on_a pods show Edited.poddoc.tar.zst TwoHostsProbe | grep -q "Added on host B" || fail "host A does not see host B's edit"
after="$(specs_count on_a info Edited.poddoc.tar.zst)"
[ "$after" -eq $((before + 1)) ] || fail "expected $((before + 1)) specs after the edit, found $after"
echo "two-hosts: passed (import over veth, archive A → B → A, hash $hash_a, edit seen on A)"
