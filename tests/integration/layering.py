#!/usr/bin/env python3
"""layering.py — fails when src/ uses a layer above its own: an #include "dir/..." (read from the
sources) or a reference to a global symbol (read with nm from the objects of libsyncscope_core.a,
which also sees what an `extern` declaration hides from the includes). Violations known today are
listed, one edge a line, in layering_exceptions.txt beside this file; an exception that no longer
occurs fails too, so that the list only shrinks.

Usage: layering.py SOURCE_DIR BUILD_DIR   (BUILD_DIR holds libsyncscope_core.a and CMakeFiles/)
"""
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

# One directory of src/ each, lowest first: a file may use its own layer and the layers below it.
# A directory of src/ that is not named here fails the check, so each new one is placed deliberately.
LAYERS = ["base", "config", "ptx", "stalls", "store", "export", "exec", "hardware", "host", "workloads",
          "timing", "model", "protocols", "session", "studies", "cli"]
SAME_PLACE_AS = {"engine": "timing"}  # engine/ is the name timing/ is to take
# Inside protocols/, the files at its top level (the registry and the protocol interface) and
# common/ (building blocks) are below the mechanism folders protocols/<name>/. A mechanism folder
# is used only by itself and by the registry.
PROTOCOL_REGISTRY = {"src/protocols/mechanism.c"}
OUTSIDE_LIBRARY = Path("src/cli/main.c")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
EXCEPTIONS = Path(__file__).with_name("layering_exceptions.txt")


def layer(path):
    """The layer of a path under src/ ('src/exec/occupancy.c' -> 'exec'), None outside every layer."""
    parts = Path(path).parts
    name = SAME_PLACE_AS.get(parts[1], parts[1]) if len(parts) > 2 else None
    return name if name in LAYERS else None


def mechanism_folder(path):
    """The mechanism folder a protocols/ path is in, '' for the top level and common/."""
    parts = Path(path).parts
    return "" if len(parts) == 3 or parts[2] == "common" else parts[2]


def why_not(user, used):
    """Why the file `user` may not use the file `used` (both 'src/...'), None when it may (or when
    either is in no layer, which unplaced_directories reports)."""
    if layer(user) is None or layer(used) is None:
        return None
    if LAYERS.index(layer(used)) > LAYERS.index(layer(user)):
        return f"{layer(used)} is above {layer(user)}"
    folder = mechanism_folder(used) if layer(used) == "protocols" == layer(user) else ""
    if folder and folder != mechanism_folder(user) and str(user) not in PROTOCOL_REGISTRY:
        registry = ", ".join(sorted(PROTOCOL_REGISTRY))
        return f"only protocols/{folder}/ itself and the registry {registry} may use protocols/{folder}/"
    return None


def unplaced_directories(source_dir):
    """A message for each entry of src/ that LAYERS does not place."""
    for entry in sorted((source_dir / "src").iterdir()):
        if layer(entry.relative_to(source_dir) / "file") is None:
            yield f"src/{entry.name} is in no layer: place it in LAYERS of {Path(__file__).name}"


def include_violations(source_dir):
    """{(file, included file): message} for each #include that goes up."""
    found = {}
    for path in sorted((source_dir / "src").rglob("*.[ch]")):
        user = path.relative_to(source_dir)
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            # As the compiler looks: beside the including file first, then in src/ (-I src).
            beside = path.parent / match[1]
            used = (beside if beside.exists() else source_dir / "src" / match[1]).resolve()
            if not used.exists():
                continue  # not a file of src/ (a system header written with quotes)
            used = used.relative_to(source_dir.resolve())
            reason = why_not(user, used)
            if reason:
                found.setdefault((str(user), str(used)), f'{user}:{number}: includes "{match[1]}": {reason}')
    return found


def library_objects(source_dir, build_dir):
    """{source file: its object under CMakeFiles/}, checked against the members of the archive."""
    objects_dir = build_dir / "CMakeFiles" / "syncscope_core.dir"
    sources = [path.relative_to(source_dir) for path in sorted((source_dir / "src").rglob("*.c"))]
    objects = {source: objects_dir / f"{source}.o" for source in sources if source != OUTSIDE_LIBRARY}
    members = subprocess.run(["ar", "t", str(build_dir / "libsyncscope_core.a")],
                             capture_output=True, text=True, check=True).stdout.split()
    unbuilt = [str(source) for source, obj in objects.items() if not obj.exists()]
    stale = Counter(members) - Counter(obj.name for obj in objects.values())
    if unbuilt or stale:
        sys.exit(f"FAIL: libsyncscope_core.a is not built from this src/ (sources without an object: "
                 f"{unbuilt}; members without a source: {sorted(stale)}): rebuild")
    return objects


def reference_violations(objects):
    """{(file, symbol): message} for each global symbol an object uses from a layer above it."""
    sources_of = {str(obj): source for source, obj in objects.items()}
    listing = subprocess.run(["nm", "-A", "-P", *sources_of], capture_output=True, text=True, check=True)
    defined_in, used_by = {}, []
    for line in listing.stdout.splitlines():
        obj, symbol, kind = line.replace(":", "", 1).split()[:3]
        if kind == "U":
            used_by.append((sources_of[obj], symbol))
        elif kind.isupper():
            defined_in[symbol] = sources_of[obj]
    found = {}
    for user, symbol in used_by:
        reason = symbol in defined_in and why_not(user, defined_in[symbol])
        if reason:
            found[(str(user), symbol)] = f"{user}: uses {symbol}, defined in {defined_in[symbol]}: {reason}"
    return found


def exceptions():
    """{(file, file or symbol): line number} from the exceptions file."""
    listed = {}
    for number, line in enumerate(EXCEPTIONS.read_text().splitlines(), 1):
        edge = line.split("#", 1)[0].split("->")
        if len(edge) == 2:
            listed[(edge[0].strip(), edge[1].strip())] = number
        elif edge[0].strip():
            sys.exit(f"FAIL: {EXCEPTIONS.name}:{number}: not 'from-file -> to-file-or-symbol  # why'")
    return listed


def main():
    source_dir, build_dir = Path(sys.argv[1]), Path(sys.argv[2])
    failures = list(unplaced_directories(source_dir))
    includes = include_violations(source_dir)
    references = reference_violations(library_objects(source_dir, build_dir))
    listed = exceptions()
    found = includes | references
    failures += [message for edge, message in found.items() if edge not in listed]
    failures += [f"{EXCEPTIONS.name}:{number}: stale exception '{used_by} -> {used}' no longer occurs: "
                 "delete it" for (used_by, used), number in listed.items() if (used_by, used) not in found]
    for message in failures:
        print(f"FAIL: {message}")
    print(f"layering: {len(includes)} upward includes and {len(references)} upward references, "
          f"{len(listed)} listed as exceptions; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
