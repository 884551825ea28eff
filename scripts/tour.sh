#!/usr/bin/env bash
# The five-minute tour of poddoc (`make tour`), on the bundled sample data: a pods document
# filled over HTTP from `poddoc serve`, searched, exported as an archive and opened "on another
# machine"; then an outline edited in the shell, with undo and autosave.
# Everything happens in a temporary folder; nothing outside it is touched.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
poddoc="${PODDOC:-$repo/.build/debug/poddoc}"
work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
export HOME="$work/home" XDG_STATE_HOME="$work/home/.local/state"
mkdir -p "$HOME"

step() { printf '\n== %s\n' "$*"; }
run() { printf '$ poddoc %s\n' "$*"; "$poddoc" "$@"; }

step "1. A new pods document"
run new Specs.poddoc --kind pods

step "2. Serve the bundled 2014 specs over HTTP (in the background), import them over loopback"
"$poddoc" serve "$repo/SampleDocuments/specs-2014-sample.json" --port 0 --page-size 50 --json > serve.json &
server=$!
for _ in $(seq 100); do [ -s serve.json ] && break; sleep 0.1; done
url="$(sed -e 's/.*"url":"\([^"]*\)".*/\1/' serve.json)"
echo "serving at $url"
run import Specs.poddoc --from "$url"

step "3. Search, show, count"
run pods search Specs.poddoc json rpc --limit 3
run pods show Specs.poddoc AFJSONRPCClient
run pods count Specs.poddoc AF

step "4. Export one archive file, and stop the server"
run export Specs.poddoc Specs.poddoc.tar.zst --format archive
kill "$server"; wait "$server" || true; server=""

step "5. Open that archive from another folder, as another user on another machine"
mkdir -p elsewhere/home
cp Specs.poddoc.tar.zst elsewhere/
(
  cd elsewhere
  export HOME="$PWD/home" XDG_STATE_HOME="$PWD/home/.local/state"
  run check Specs.poddoc.tar.zst
  run info Specs.poddoc.tar.zst
  run pods ls Specs.poddoc.tar.zst AFJSONRPC
)

step "6. An outline, edited in the shell (autosave every second, undo, redo)"
run new Notes.poddoc --kind outline
first=('add Groceries' 'add Milk --under 1' 'add Work' 'undo' 'redo' 'status')
then=('undo' 'add "Rye bread" --under /Groceries' 'mv 1.2 --under / --at 1' 'tree' 'quit')
echo '$ poddoc open Notes.poddoc --autosave-interval 1     # the shell reads these lines:'
printf '    %s\n' "${first[@]}" '(a two-second pause: autosave runs)' "${then[@]}"
{
  printf '%s\n' "${first[@]}"
  sleep 2
  printf '%s\n' "${then[@]}"
} | "$poddoc" open Notes.poddoc --autosave-interval 1 2>&1
run outline tree Notes.poddoc
run versions Notes.poddoc
run diff Notes.poddoc --from 1
run export Notes.poddoc Notes.opml --format opml
run revert Notes.poddoc --to 1
run outline tree Notes.poddoc
run check Notes.poddoc

step "Done: every command above is in \`poddoc --help\`; docs/CLI.md has the --json shapes."
