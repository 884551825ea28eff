#!/usr/bin/env python3
"""Finishes the man page swift-argument-parser's generate-manual writes (docs/man/poddoc.1),
so that it reads as a man page should and `man --warnings` has nothing to say:

- the EXIT STATUS table of the root command's discussion becomes the section EXIT STATUS (in
  place of generate-manual's generic `.Ex -std`);
- every command's examples (the "Examples:" paragraph its --help ends with) move to the
  section EXAMPLES, one literal block a command, in the order of the page;
- a blank line (a paragraph break in a discussion) becomes .Pp.

Usage: scripts/man-page.py docs/man/poddoc.1   (rewrites it in place)
"""
import sys


def main(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    body, exit_status, examples = [], [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line == "EXIT STATUS":
            i += 1
            while i < len(lines) and lines[i].startswith("  "):
                code, _, meaning = lines[i].strip().partition(" ")
                exit_status.append((code, meaning.strip()))
                i += 1
            continue
        if line == "Examples:":
            i += 1
            block = []
            while i < len(lines) and lines[i].startswith("  "):
                block.append(lines[i].strip())
                i += 1
            examples.append(block)
            while body and body[-1] in ("", ".Pp"):
                body.pop()
            continue
        if line == '.Sh "EXIT STATUS"' and i + 1 < len(lines) and lines[i + 1] == ".Ex -std":
            i += 2  # generate-manual's generic sentence; the table replaces it
            continue
        body.append(line)
        i += 1

    out = []
    for line in body:
        if line == "":
            if out and out[-1] != ".Pp" and not out[-1].startswith(".Sh"):
                out.append(".Pp")
            continue
        if line.startswith(".Bl") and out and out[-1] == ".Pp":
            out.pop()
        out.append(line)
    while out and out[-1] in ("", ".Pp"):
        out.pop()

    extra = []
    if exit_status:
        extra += [".Sh EXIT STATUS", ".Bl -tag -width 6n"]
        for code, meaning in exit_status:
            extra += [".It " + code, meaning]
        extra.append(".El")
    if examples:
        extra.append(".Sh EXAMPLES")
        for index, block in enumerate(examples):
            if index:
                extra.append(".Pp")
            extra.append(".Bd -literal -offset indent")
            extra += [escape(example) for example in block]
            extra.append(".Ed")

    # EXIT STATUS and EXAMPLES come after DESCRIPTION, before the sections that end a page.
    at = next((k for k, line in enumerate(out) if line.startswith(".Sh ") and line[4:] in ("SEE ALSO", "AUTHORS", "HISTORY")), len(out))
    out = out[:at] + extra + out[at:]
    open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")


def escape(text):
    """A literal line as roff prints it: backslashes doubled, a leading dot or quote guarded."""
    text = text.replace("\\", "\\e")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


if __name__ == "__main__":
    main(sys.argv[1])
