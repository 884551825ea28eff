#!/usr/bin/env bash
# Regenerates, from the command definitions of the built `poddoc`:
#   completions/poddoc.bash, completions/_poddoc (zsh), completions/poddoc.fish
#   docs/man/poddoc.1 (swift-argument-parser's generate-manual tool, finished by
#   scripts/man-page.py: EXIT STATUS and EXAMPLES sections; dated with the last commit) and
#   docs/man/poddoc-commands.json (the command tree the page was made from; a test checks it
#   is current, so a changed command fails the tests until this script is run again).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product poddoc >&2
swift build --product generate-manual >&2
poddoc=.build/debug/poddoc
mkdir -p completions docs/man
"$poddoc" --generate-completion-script bash > completions/poddoc.bash
"$poddoc" --generate-completion-script zsh > completions/_poddoc
"$poddoc" --generate-completion-script fish > completions/poddoc.fish
"$poddoc" --experimental-dump-help > docs/man/poddoc-commands.json
.build/debug/generate-manual "$poddoc" --date "$(git log -1 --format=%cs 2>/dev/null || date -u +%F)" --section 1 \
    --authors "the poddoc authors" --output-directory docs/man
python3 scripts/man-page.py docs/man/poddoc.1
ls docs/man completions
