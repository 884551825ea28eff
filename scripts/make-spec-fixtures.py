#!/usr/bin/env python3
"""Makes the small slice of real specs the PodSpecs tests use on a fresh machine.

Run from the repository root:  python3 scripts/make-spec-fixtures.py
Writes Tests/Fixtures/specs/ (committed; nothing here runs during builds or tests):
  Specs-2014/     Specs/Name/version/Name.podspec.json, real specs covering every shape the
                  normaliser handles, the corpus's stray files, and three malformed specs.
  Specs-sharded/  the same specs in today's layout, Specs/a/b/c/Name/version/... (a/b/c: the
                  first three hex digits of md5(name)).
"""
import hashlib
import pathlib
import shutil
import sys
import tarfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
OUT = ROOT / "Tests" / "Fixtures" / "specs"

# Whole pods (every version), each chosen for a shape real data has.
PODS = [
    "500px-iOS-api",       # authors object, license string, git tag
    "AD-X-SDK",            # authors string, http source
    "APLArrayDataSource",  # authors array
    "CocoaAsyncSocket",    # authors array holding an object
    "ProtocolBuffers",     # authors object with a null email
    "A3GridTableView",     # license object
    "A2StoryboardSegueContext",  # platform target null
    "AZSocketIO",          # platform target as a number
    "ADLYRetainingCache",  # requires_arc "true"
    "CWPopup",             # requires_arc array
    "GData",               # svn source
    "HyperBek",            # hg source
    "AdjustIO",            # deprecated_in_favor_of
    "AFNetworking",        # pre-release versions (1.0RC1), version order
]
STRAY = ["Specs/AWSS3/0.0.1/LICENSE", "Specs/GTFoundation/0.0.7/.gitkeep",
         "Specs/TMTumblrSDK/CHANGELOG.md", "Specs/Tesseract-wrapper/0.0.2"]
MALFORMED = {
    "Broken/1.0/Broken.podspec.json": b'{"name": "Broken", "version": "1.0", "summary": "cut sho',
    "NoName/1.0/NoName.podspec.json": b'{"version": "1.0", "summary": "a spec without a name"}\n',
    "BadText/1.0/BadText.podspec.json": b'{"name": "BadText", "version": "1.0", "summary": "\xff\xfe"}\n',
}


def main():
    archive_path = SHARED / "cocoapods-specs-2014.tar.gz"
    if not archive_path.exists():
        sys.exit(f"make-spec-fixtures: {archive_path} is missing")
    shutil.rmtree(OUT, ignore_errors=True)
    flat, sharded = OUT / "Specs-2014", OUT / "Specs-sharded"
    with tarfile.open(archive_path) as archive:
        for member in archive.getmembers():
            if not member.isfile():
                continue
            parts = member.name.split("/")
            if member.name in STRAY:
                target = flat / "/".join(parts[1:])
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.extractfile(member).read())
                continue
            if len(parts) == 4 and parts[1] in PODS and member.name.endswith(".podspec.json"):
                data = archive.extractfile(member).read()
                name = parts[1]
                shard = hashlib.md5(name.encode()).hexdigest()[:3]
                for target in (flat / "/".join(parts[1:]), sharded.joinpath(*shard, *parts[1:])):
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
    for path, data in MALFORMED.items():
        target = flat / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    specs = sum(1 for _ in flat.rglob("*.podspec.json"))
    print(f"Tests/Fixtures/specs: {specs} spec files in Specs-2014 (3 malformed), {len(STRAY)} stray files")


if __name__ == "__main__":
    main()
