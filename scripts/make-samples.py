#!/usr/bin/env python3
"""Makes the small sample slices poddoc ships, from the real data in ../shared/data.

Run from the repository root:  python3 scripts/make-samples.py
The outputs are committed; nothing here runs during builds or tests.
"""
import json
import pathlib
import sys
import tarfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
OUT = ROOT / "SampleDocuments"


def spec_slice(count=300):
    """The first `count` real specs of the 2014 corpus (by path), as one page of the
    reference web service: {"number_of_pages": 1, "result": [spec, ...]}."""
    specs = []
    with tarfile.open(SHARED / "cocoapods-specs-2014.tar.gz") as archive:
        members = sorted((m for m in archive.getmembers()
                          if m.isfile() and m.name.endswith(".podspec.json")), key=lambda m: m.name)
        for member in members[:count]:
            specs.append(json.load(archive.extractfile(member)))
    return {"number_of_pages": 1, "result": specs}


def main():
    if not SHARED.exists():
        sys.exit(f"make-samples: {SHARED} is missing; the samples are made from the shared real data")
    OUT.mkdir(exist_ok=True)
    page = spec_slice()
    (OUT / "specs-2014-sample.json").write_text(json.dumps(page, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"SampleDocuments/specs-2014-sample.json: {len(page['result'])} specs")


if __name__ == "__main__":
    main()
