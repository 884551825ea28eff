#!/usr/bin/env bash
# Builds the sample documents in SampleDocuments/ with the real `poddoc`:
#   pods-sample.poddoc/     + pods-sample.poddoc.tar.zst     (300 real specs of 2014, 2 saves)
#   outline-sample.poddoc/  + outline-sample.poddoc.tar.zst  (Fargo's 2013 work notes, 642 items, 5 saves)
# They are the format fixtures every later poddoc must open (Tests/PodDocContentTests/
# SampleDocumentsTests.swift), so they are committed; run `make sample-documents` to rebuild them.
#
# Archives are reproducible: mtimes come from SOURCE_DATE_EPOCH (fixed below) and the sources
# are imported from a fixed path, so the import checkpoints do not name this machine's folders.
# A new run gives new document IDs and creation dates (each document is a new one).
set -euo pipefail
cd "$(dirname "$0")/.."
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-1400000000}"   # 2014-05-13, the specs' year

poddoc="${PODDOC:-}"
if [ -z "$poddoc" ]; then
  swift build --product poddoc >&2
  poddoc="$PWD/.build/debug/poddoc"
fi
out="$PWD/SampleDocuments"

# Sources at a fixed path (the checkpoint of an import records its source's path).
staging=/tmp/poddoc-sample-sources
rm -rf "$staging"
mkdir -p "$staging"
cp "$out/specs-2014-sample.json" "$out/fargo-worknotes.opml" "$staging/"
state="$(mktemp -d)"
trap 'rm -rf "$staging" "$state"' EXIT
export XDG_STATE_HOME="$state"

for name in pods-sample outline-sample; do
  rm -rf "$out/$name.poddoc" "$out/$name.poddoc.tar.zst"
done

# A few saves each, so that `versions`, `diff --from`, `export --at` and `revert` have a
# history to show: the specs in two imports (the first 200, then all 300: 100 new), the
# outline imported, then edited.
python3 - "$staging" <<'PY'
import json, sys
folder = sys.argv[1]
page = json.load(open(f"{folder}/specs-2014-sample.json"))
# Both pages written alike, so the 200 specs of the first are unchanged in the second.
json.dump(dict(page, result=page["result"][:200]), open(f"{folder}/specs-first-200.json", "w"))
json.dump(page, open(f"{folder}/specs-all-300.json", "w"))
PY
"$poddoc" new "$out/pods-sample.poddoc" --kind pods
"$poddoc" import "$out/pods-sample.poddoc" --from "$staging/specs-first-200.json"
"$poddoc" import "$out/pods-sample.poddoc" --from "$staging/specs-all-300.json"
"$poddoc" new "$out/outline-sample.poddoc" --kind outline
"$poddoc" import "$out/outline-sample.poddoc" --opml "$staging/fargo-worknotes.opml"
"$poddoc" outline note "$out/outline-sample.poddoc" 1 "Imported from Fargo; the notes below are Dave Winer's."
added="$("$poddoc" outline add "$out/outline-sample.poddoc" "To read again" --under 1 --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["path"])')"
"$poddoc" outline rename "$out/outline-sample.poddoc" "$added" "To read again, slowly"
"$poddoc" outline rm "$out/outline-sample.poddoc" "$added"

for name in pods-sample outline-sample; do
  rm -f "$out/$name.poddoc/.poddoc-lock"
  "$poddoc" export "$out/$name.poddoc" "$out/$name.poddoc.tar.zst" --format archive
  rm -f "$out/$name.poddoc/.poddoc-lock"
  "$poddoc" check "$out/$name.poddoc"
  "$poddoc" check "$out/$name.poddoc.tar.zst"
  # A read-only open leaves an empty -wal and its -shm behind: not part of the document.
  wal="$out/$name.poddoc/StoreContent/persistentStore-wal"
  if [ -f "$wal" ] && [ ! -s "$wal" ]; then rm -f "$wal" "${wal%-wal}-shm"; fi
done
