#!/usr/bin/env bash
# Two hosts sharing poddoc documents (the "two hosts" row of docs/RELIABILITY.md): two network namespaces
# joined by a veth pair, each with its own HOME, TZ and locale.
#   host A (10.77.0.1) serves a pods document with `poddoc serve`;
#   host B (10.77.0.2) imports from it over the link, and the content matches A's exactly;
#   host A exports an archive; host B opens it from another path, checks that its logical
#   hash is A's, edits it (imports one more spec) and exports it; host A opens the result and
#   finds the edit, with every spec it had untouched.
#   an outline and a pods document are edited on both hosts offline (add, move, rename, delete;
#   imports of different specs and of one spec changed on both), exchanged over the link, and
#   merged on each host: the conflicts are listed (exit 75), then resolved the same way on both
#   (`--prefer`), and both hosts end with the same logical hash and every other edit; then both
#   keep working and exchange and merge again, twice, ending alike with every item once.
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
# Archives travel over the link: each host serves its folder over HTTP, the other fetches.
send() { # send FROM_NS FROM_DIR FROM_IP FILE TO_NS TO_DIR
  local port=8090
  (cd "$2" && exec ip netns exec "$1" python3 -m http.server "$port" --bind "$3" > /dev/null 2>&1) &
  local web=$!
  local fetched=""
  for _ in $(seq 50); do
    if ip netns exec "$5" python3 -c "import urllib.request,sys; sys.stdout.buffer.write(urllib.request.urlopen('http://$3:$port/$4', timeout=2).read())" > "$6/$4.part" 2> /dev/null; then
      fetched=yes
      break
    fi
    sleep 0.1
  done
  kill "$web" 2> /dev/null || true
  wait "$web" 2> /dev/null || true
  [ -n "$fetched" ] || fail "could not fetch $4 from $3"
  mv "$6/$4.part" "$6/$4"
}
command -v python3 > /dev/null || fail "python3 is needed to move archives over the link"

echo "== merging: one outline edited on both hosts offline, exchanged over the link, merged on each"
on_a new Notes.poddoc.tar.zst --kind outline > /dev/null
for title in Work Home Later Ideas; do on_a outline add Notes.poddoc.tar.zst "$title" > /dev/null; done
on_a outline add Notes.poddoc.tar.zst Garden --under 2 > /dev/null
send "$A" "$work/a" 10.77.0.1 Notes.poddoc.tar.zst "$B" "$work/b"
# A: add, move, rename, delete; B: the same kinds, one rename on the same item as A's.
on_a outline add Notes.poddoc.tar.zst "Desk (A)" --under 1 > /dev/null
on_a outline mv Notes.poddoc.tar.zst 2.1 --under 3 > /dev/null
on_a outline rename Notes.poddoc.tar.zst 1 "Office (A)" > /dev/null
on_a outline rm Notes.poddoc.tar.zst 4 > /dev/null
on_b outline add Notes.poddoc.tar.zst "Errands (B)" > /dev/null
on_b outline mv Notes.poddoc.tar.zst 3 --under 2 > /dev/null
on_b outline rename Notes.poddoc.tar.zst 1 "Studio (B)" > /dev/null
on_b outline note Notes.poddoc.tar.zst 2 "house (B)" > /dev/null
cp "$work/a/Notes.poddoc.tar.zst" "$work/a/Mine.poddoc.tar.zst"
cp "$work/b/Notes.poddoc.tar.zst" "$work/b/Mine.poddoc.tar.zst"
send "$A" "$work/a" 10.77.0.1 Mine.poddoc.tar.zst "$B" "$work/b/home"
send "$B" "$work/b" 10.77.0.2 Mine.poddoc.tar.zst "$A" "$work/a/home"
# The conflict (both renamed item 1) is listed and nothing changes; B's title wins on both.
set +e
on_a merge Notes.poddoc.tar.zst home/Mine.poddoc.tar.zst > "$work/a/conflicts.txt" 2> /dev/null
status=$?
set -e
[ "$status" = 75 ] || fail "the conflicting merge on A exited $status, not 75"
grep -q 'title: mine "Office (A)", theirs "Studio (B)"' "$work/a/conflicts.txt" || fail "A's merge did not list the conflict"
on_a merge Notes.poddoc.tar.zst home/Mine.poddoc.tar.zst --prefer theirs > /dev/null
on_b merge Notes.poddoc.tar.zst home/Mine.poddoc.tar.zst --prefer mine > /dev/null
outline_a="$(on_a check Notes.poddoc.tar.zst --json | json_field storeHash)"
outline_b="$(on_b check Notes.poddoc.tar.zst --json | json_field storeHash)"
[ -n "$outline_a" ] && [ "$outline_a" = "$outline_b" ] || fail "after merging, the outline's hash on A ($outline_a) and B ($outline_b) differ"
tree="$(on_a outline tree Notes.poddoc.tar.zst)"
for title in "Studio (B)" "Desk (A)" "Errands (B)" Garden Home Later; do
  printf '%s\n' "$tree" | grep -q "$title" || fail "the merged outline lacks \"$title\""
done
printf '%s\n' "$tree" | grep -q Ideas && fail "the merged outline still holds Ideas, which A deleted"
on_a outline ls Notes.poddoc.tar.zst --json | grep -q "house (B)" || fail "the merged outline lacks B's note"
echo "   outline: both hosts at $outline_a"

echo "== merging again: both hosts keep working, exchange and merge, twice, both ways"
for round in 1 2; do
  on_a outline add Notes.poddoc.tar.zst "Round $round (A)" > /dev/null
  on_b outline add Notes.poddoc.tar.zst "Round $round (B)" --under 2 > /dev/null
  on_b outline note Notes.poddoc.tar.zst 1 "note, round $round (B)" > /dev/null
  cp "$work/a/Notes.poddoc.tar.zst" "$work/a/Mine.poddoc.tar.zst"
  cp "$work/b/Notes.poddoc.tar.zst" "$work/b/Mine.poddoc.tar.zst"
  send "$A" "$work/a" 10.77.0.1 Mine.poddoc.tar.zst "$B" "$work/b/home"
  send "$B" "$work/b" 10.77.0.2 Mine.poddoc.tar.zst "$A" "$work/a/home"
  # Nothing either host merged before comes back, and nothing conflicts: each change is new.
  on_a merge Notes.poddoc.tar.zst home/Mine.poddoc.tar.zst > /dev/null || fail "round $round: A's merge failed"
  on_b merge Notes.poddoc.tar.zst home/Mine.poddoc.tar.zst > /dev/null || fail "round $round: B's merge failed"
  outline_a="$(on_a check Notes.poddoc.tar.zst --json | json_field storeHash)"
  outline_b="$(on_b check Notes.poddoc.tar.zst --json | json_field storeHash)"
  [ "$outline_a" = "$outline_b" ] || fail "round $round: the outline's hash on A ($outline_a) and B ($outline_b) differ"
  tree="$(on_a outline tree Notes.poddoc.tar.zst)"
  on_a outline ls Notes.poddoc.tar.zst --json | grep -q "note, round $round (B)" || fail "round $round: A lacks B's note"
  for title in "Round $round (A)" "Round $round (B)" "Studio (B)" "Desk (A)" "Errands (B)" Garden; do
    [ "$(printf '%s\n' "$tree" | grep -c -F "$title")" = 1 ] || fail "round $round: \"$title\" is not in the merged outline exactly once"
  done
  on_a merge Notes.poddoc.tar.zst home/Mine.poddoc.tar.zst | grep -q "Nothing to merge" || fail "round $round: merging again on A did something"
done
echo "   outline: both hosts at $outline_a after two more rounds"

echo "== merging: pods imported on both hosts, one spec changed on both"
on_a new Pods.poddoc.tar.zst --kind pods > /dev/null
on_a import Pods.poddoc.tar.zst --from "$sample" > /dev/null
send "$A" "$work/a" 10.77.0.1 Pods.poddoc.tar.zst "$B" "$work/b"
page() { # page FILE NAME SUMMARY
  cat > "$1" <<JSON
{"number_of_pages": 1, "result": [{"name": "$2", "version": "1.0.0", "summary": "$3", "homepage": "https://example.org/$2",
  "license": "MIT", "authors": {"Hosts": "h@example.org"}, "source": {"git": "https://example.org/$2.git", "tag": "1.0.0"},
  "platforms": {"ios": "8.0"}}]}
JSON
}
page "$work/a/only-a.json" OnlyOnA "Imported on A"
page "$work/b/only-b.json" OnlyOnB "Imported on B"
page "$work/a/both.json" TwoHostsProbe "Changed on A"
page "$work/b/both.json" TwoHostsProbe "Changed on B"
on_a import Pods.poddoc.tar.zst --from only-a.json > /dev/null
on_a import Pods.poddoc.tar.zst --from both.json > /dev/null
on_b import Pods.poddoc.tar.zst --from only-b.json > /dev/null
on_b import Pods.poddoc.tar.zst --from both.json > /dev/null
cp "$work/a/Pods.poddoc.tar.zst" "$work/a/MinePods.poddoc.tar.zst"
cp "$work/b/Pods.poddoc.tar.zst" "$work/b/MinePods.poddoc.tar.zst"
send "$A" "$work/a" 10.77.0.1 MinePods.poddoc.tar.zst "$B" "$work/b/home"
send "$B" "$work/b" 10.77.0.2 MinePods.poddoc.tar.zst "$A" "$work/a/home"
set +e
on_b merge Pods.poddoc.tar.zst home/MinePods.poddoc.tar.zst > /dev/null 2>&1
status=$?
set -e
[ "$status" = 75 ] || fail "the conflicting pods merge on B exited $status, not 75"
on_a merge Pods.poddoc.tar.zst home/MinePods.poddoc.tar.zst --prefer theirs > /dev/null
on_b merge Pods.poddoc.tar.zst home/MinePods.poddoc.tar.zst --prefer mine > /dev/null
pods_a="$(on_a check Pods.poddoc.tar.zst --json | json_field storeHash)"
pods_b="$(on_b check Pods.poddoc.tar.zst --json | json_field storeHash)"
[ -n "$pods_a" ] && [ "$pods_a" = "$pods_b" ] || fail "after merging, the pods hash on A ($pods_a) and B ($pods_b) differ"
on_a pods show Pods.poddoc.tar.zst OnlyOnB | grep -q "Imported on B" || fail "A lacks B's import"
on_b pods show Pods.poddoc.tar.zst OnlyOnA | grep -q "Imported on A" || fail "B lacks A's import"
on_a pods show Pods.poddoc.tar.zst TwoHostsProbe | grep -q "Changed on B" || fail "the conflict was not resolved B's way on A"
[ "$(specs_count on_a info Pods.poddoc.tar.zst)" -eq $((before + 3)) ] || fail "the merged pods document lacks specs"
echo "   pods: both hosts at $pods_a"
echo "two-hosts: passed (import over veth, archive A → B → A, hash $hash_a, edit seen on A; outline and pods edited on both, merged over the link to equal hashes)"
