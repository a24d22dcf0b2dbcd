#!/usr/bin/env python3
"""readme_outputs.py — produces every command output shown in README.md by running the command,
and checks that what the README shows is still what the commands print.

A README command block is a fenced block whose first line starts with `$ `: each `$ CMD` line is
a command, the lines after it (up to the next `$ ` line) its output, stdout and stderr as they
interleave. An HTML comment right above the fence says how to run it (invisible on GitHub):

  <!-- readme: session=NAME [expensive] [depends="PATH PATH..."] [keep="REGEX"] [keepN="REGEX"]
       [digest=HEX] -->

- session: blocks of one session run in document order in one scratch directory (a copy of the
  repository's models/ and tests/data/, `syncscope` on the PATH being the binary under test),
  so a block sees the databases and files the session's earlier blocks made; a `cd` carries over
  to the next command. Every command block needs a directive: a new example must say where it
  runs (and whether it is expensive) before the script will touch the README.
- expensive (on a session's first block): the session takes minutes, so --check does not run
  it. Instead --update stores, on that block, a digest of what determines its outputs: the files
  and directories named in `depends` (the behaviour golden tests/golden/behaviour.golden, which
  changes whenever simulated behaviour changes, and the sources that compute and print what the
  session shows) together with the session's own commands, setups and shown outputs. A depends
  entry FILE@REGEX (no spaces; \s for one) takes only the lines of FILE that REGEX matches: a
  session that runs one preset's mechanisms depends on the golden lines of those runs, so a change
  of behaviour elsewhere does not send it back for a re-run. --check
  fails when the digest no longer matches: one of those inputs changed (or the shown text was
  edited by hand) since the outputs were produced, and `--update --session NAME` must run again.
- stale=REASON (on an expensive session's first block, set by --mark-stale): the session's
  inputs changed (REASON says how) and it has not been re-run yet. Its shown outputs stay, with
  a visible line right above the block (or its setup comment), "> **Not re-run since REASON**:
  this output is from an earlier build.", which --check requires; --check then accepts the
  changed digest but fails if the shown text was edited after marking (`shown`, a digest of the
  session's commands and shown outputs). --update of the session removes both.
- keep / keepN: only output lines matching REGEX are shown (of every command of the block, or of
  its N-th command); each run of skipped lines is shown as one `...` line.
- A comment `<!-- readme-setup` ... `-->` right above the directive holds shell lines that run,
  silently, in the session's directory before the block (files a command reads, databases an
  example needs).

Numbers that depend on the machine's speed or on the clock (wall times, rates, speedups of a
wall time, peak memory, timestamps) are written `~NUMBER` in the README. The rules below mark them
in fresh output; the comparison ignores their digits (and the spaces that pad them).

usage: readme_outputs.py --check|--update|--list|--mark-stale REASON [--syncscope PATH]
                         [--readme PATH] [--session NAME]... [--cheap] [--run-expensive] [--verbose]
  --check          re-run the cheap sessions and compare (unified diff of every difference);
                   check the expensive sessions' digests (or re-run them with --run-expensive)
  --update         re-run the sessions (all, or --session NAME..., or --cheap) and rewrite their
                   outputs (and the expensive sessions' digests) in the README in place
Exit status: 0 all shown outputs match, 1 a difference or a failed setup, 2 bad usage or a
malformed README directive (one line naming README:LINE).
"""
import argparse
import difflib
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

NUMBER = r"[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?"
TIMESTAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z"
MARKED = re.compile(r"~(?:" + TIMESTAMP + "|" + NUMBER + ")")

# Lines whose numbers in (groups) depend on the machine, for every command.
LINE_RULES = [re.compile(rule.replace("(N)", "(" + NUMBER + ")")) for rule in (
    r"^wall time +(N) s, of which (N) s in kernels \((N) M warp-instructions/s\)",
    r'"wall_seconds":(N)',
    r"^model .*\((N) s\)$",
    r"model runs in (N) s",
    r"lines x \d+ seeds in (N) s",
    r"final words, (N) s$",
    r"stored in (N) s \((N) runs/s\)",
    r"\((N) s per detailed run: the model sweep is (N)x faster",
    r"time: detailed runs and profiles (N) s, fit (N) s",
    r"in (N) s = (N) runs/s, (N) rows/s",
    r"slowest workload: cold (N) evaluations/s \(\S+\), sweep (N) evaluations/s \(\S+\) \(checksum (N)\)",
)]

# Table columns whose values depend on the machine, for commands matching the first regex.
COLUMN_RULES = [
    (re.compile(r"^syncscope list runs"), ["created_at", "wall_seconds"]),
    (re.compile(r"^syncscope bench (functional|detailed)"),
     ["kernel-s", "M warp-i/s", "M cycles/s", "peak-MiB"]),
    (re.compile(r"^syncscope bench sampled"), ["full-s", "sample-s", "speedup"]),
    (re.compile(r"^syncscope bench model"), ["profile-s", "cold-evals/s", "sweep-evals/s", "group-evals/s"]),
    (re.compile(r"^syncscope bench store"), ["first-s", "best-of-3-s"]),
    (re.compile(r"^syncscope tester"), ["wall s"]),
]
COLUMN_VALUE = re.compile(r"^(?:" + TIMESTAMP + "|" + NUMBER + "x?)$")

DIRECTIVE = re.compile(r"^<!-- readme: (.*) -->\s*$")
SETUP_OPEN = "<!-- readme-setup"
FENCE = re.compile(r"^```")


class ReadmeError(Exception):
    """A malformed README directive: one line naming README:LINE."""


class Command:
    def __init__(self, text, output, blank_after):
        self.text = text                # the command after "$ "
        self.output = output            # shown output lines
        self.blank_after = blank_after  # a blank separator line follows in the README


class Block:
    def __init__(self, line, options, setup, directive_index):
        self.line = line          # 1-based line of the opening fence
        self.options = options
        self.setup = setup
        self.directive_index = directive_index  # README line index of its directive, or None
        self.commands = []
        self.start = self.end = 0  # README line indexes of the block's body [start, end)

    def keep(self, index):
        return self.options.get("keep%d" % (index + 1), self.options.get("keep"))


def parse_directive(text, where):
    options = {}
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise ReadmeError("%s: readme directive: %s" % (where, error))
    for word in words:
        key, _, value = word.partition("=")
        if key not in ("session", "expensive", "depends", "keep", "digest", "stale", "shown") and \
                not re.fullmatch(r"keep\d+", key):
            raise ReadmeError("%s: readme directive: unknown key '%s'" % (where, key))
        if key == "expensive" and value:
            raise ReadmeError("%s: readme directive: expensive takes no value" % where)
        if key != "expensive" and not value:
            raise ReadmeError("%s: readme directive: %s needs a value" % (where, key))
        options[key] = True if key == "expensive" else value
        if key.startswith("keep"):
            try:
                re.compile(value)
            except re.error as error:
                raise ReadmeError("%s: readme directive: %s: %s" % (where, key, error))
    if "session" not in options:
        raise ReadmeError("%s: readme directive: session=NAME is missing" % where)
    return options


def parse(path, lines):
    """The README's command blocks, in document order."""
    blocks = []
    pending_options, pending_setup, pending_index = None, None, None
    i = 0
    while i < len(lines):
        line = lines[i]
        where = "%s:%d" % (path, i + 1)
        if line.startswith(SETUP_OPEN):
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != "-->":
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise ReadmeError("%s: readme-setup comment is not closed by a '-->' line" % where)
            pending_setup = "\n".join(body)
            i += 1
            continue
        match = DIRECTIVE.match(line)
        if match:
            pending_options = parse_directive(match.group(1), where)
            pending_index = i
            i += 1
            continue
        if FENCE.match(line):
            end = i + 1
            while end < len(lines) and not FENCE.match(lines[end]):
                end += 1
            if end == len(lines):
                raise ReadmeError("%s: code fence is not closed" % where)
            body = lines[i + 1:end]
            if body and body[0].startswith("$ "):
                if not pending_options:
                    raise ReadmeError("%s: a command block without a readme directive above it "
                                      "(<!-- readme: session=NAME -->)" % where)
                block = Block(i + 1, pending_options, pending_setup, pending_index)
                block.start, block.end = i + 1, end
                for text in body:
                    if text.startswith("$ "):
                        block.commands.append(Command(text[2:], [], False))
                    else:
                        block.commands[-1].output.append(text)
                for command in block.commands:
                    while command.output and not command.output[-1].strip():
                        command.output.pop()
                        command.blank_after = True
                    command.blank_after = command.blank_after and command is not block.commands[-1]
                blocks.append(block)
            elif pending_options or pending_setup:
                raise ReadmeError("%s: a readme directive precedes a block without '$ ' commands" % where)
            pending_options, pending_setup, pending_index = None, None, None
            i = end + 1
            continue
        if line.strip() and (pending_options or pending_setup):
            raise ReadmeError("%s: a readme directive must be right above a command block" % where)
        i += 1
    sessions = {}
    for block in blocks:
        sessions.setdefault(block.options["session"], []).append(block)
    for name, members in sessions.items():
        for block in members[1:]:
            for key in ("expensive", "depends", "digest", "stale", "shown"):
                if key in block.options:
                    raise ReadmeError("%s:%d: readme directive: %s belongs on session %s's first block (line %d)"
                                      % (path, block.line, key, name, members[0].line))
        if "stale" in members[0].options and "expensive" not in members[0].options:
            raise ReadmeError("%s:%d: readme directive: only an expensive session can be stale" % (path, members[0].line))
        if "expensive" in members[0].options and "depends" not in members[0].options:
            raise ReadmeError("%s:%d: readme directive: an expensive session needs depends=\"...\"" % (path, members[0].line))
    return blocks, sessions


def apply_marks(line, marks):
    """Writes ~ before each marked token; in a padded column the ~ takes a padding space."""
    for start, _ in sorted(set(marks), reverse=True):
        if start >= 2 and line[start - 1] == " " and line[start - 2] == " ":
            line = line[:start - 1] + "~" + line[start:]
        else:
            line = line[:start] + "~" + line[start:]
    return line


def mark_machine_numbers(command, output):
    """Fresh output with every machine-dependent number written ~NUMBER."""
    columns = []
    for pattern, names in COLUMN_RULES:
        if pattern.search(command):
            columns = names
    marked = []
    header = None
    for line in output:
        marks = []
        for rule in LINE_RULES:
            for match in rule.finditer(line):
                for group in range(1, rule.groups + 1):
                    marks.append((match.start(group), match.end(group)))
        if not line.strip():
            header = None
        elif columns and any(re.search(r"(^|\s)" + re.escape(name) + r"(\s|$)", line) for name in columns):
            header = [(m.start(), m.end()) for name in columns
                      for m in [re.search(r"(?:^|(?<=\s))" + re.escape(name) + r"(?=\s|$)", line)] if m]
        elif header:
            for token in re.finditer(r"\S+", line):
                if not COLUMN_VALUE.match(token.group()):
                    continue
                for start, end in header:
                    if token.end() == end or token.start() == start:
                        marks.append((token.start(), token.end()))
        marked.append(apply_marks(line, marks))
    return marked


def normalise(lines):
    """Shown or fresh lines as the comparison sees them: machine-dependent numbers masked."""
    result = []
    for line in lines:
        line = MARKED.sub("~#", line.rstrip())
        line = re.sub(r" +~#", " ~#", line)
        line = re.sub(r"~# +", "~# ", line)
        result.append(line)
    return result


def elide(lines, keep):
    if not keep:
        return lines
    pattern = re.compile(keep)
    shown, skipping = [], False
    for line in lines:
        if pattern.search(line):
            shown.append(line)
            skipping = False
        elif not skipping:
            shown.append("...")
            skipping = True
    return shown


class Session:
    """A scratch directory where one session's blocks run."""

    def __init__(self, name, root, syncscope, source_dir):
        self.dir = os.path.join(root, re.sub(r"[^A-Za-z0-9_.-]", "_", name))
        os.makedirs(self.dir)
        for part in ("models", os.path.join("tests", "data")):
            shutil.copytree(os.path.join(source_dir, part), os.path.join(self.dir, part), symlinks=True)
        bin_dir = os.path.join(root, "bin")
        os.makedirs(bin_dir, exist_ok=True)
        link = os.path.join(bin_dir, "syncscope")
        if not os.path.exists(link):
            os.symlink(os.path.abspath(syncscope), link)
        self.env = dict(os.environ)
        for key in ("SYNCSCOPE_DB", "SYNCSCOPE_PREFIX"):
            self.env.pop(key, None)
        self.env.update(PATH=bin_dir + os.pathsep + self.env.get("PATH", ""), SYNCSCOPE_PROGRESS="0",
                        SYNCSCOPE_SOURCE_DIR=source_dir, LC_ALL="C", TZ="UTC")
        self.cwd = self.dir
        self.cwd_file = os.path.join(root, "cwd-" + os.path.basename(self.dir))

    def run(self, text):
        script = 'cd "$1" || exit 99\neval "$2"\nrc=$?\npwd >"$3"\nexit $rc'
        done = subprocess.run(["bash", "-c", script, "bash", self.cwd, text, self.cwd_file], env=self.env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if os.path.exists(self.cwd_file):
            with open(self.cwd_file) as f:
                self.cwd = f.read().strip() or self.cwd
        return done.returncode, done.stdout.decode("utf-8", "replace").splitlines()


def run_session(name, blocks, root, syncscope, source_dir, log, verbose):
    """Runs a session's blocks; returns {id(block): [the fresh output to show, per command]}."""
    session = Session(name, root, syncscope, source_dir)
    fresh = {}
    for block in blocks:
        if block.setup:
            rc, output = session.run(block.setup)
            if rc != 0:
                raise RuntimeError("session %s, block at README line %d: setup exited %d:\n%s"
                                   % (name, block.line, rc, "\n".join(output[-20:])))
        outputs = []
        for index, command in enumerate(block.commands):
            started = time.time()
            rc, output = session.run(command.text)
            output = [line.rstrip() for line in output]
            while output and not output[-1]:
                output.pop()
            log("  $ %s   (exit %d, %.1f s)" % (command.text, rc, time.time() - started))
            if verbose:
                log("\n".join("    | " + line for line in output))
            outputs.append(elide(mark_machine_numbers(command.text, output), block.keep(index)))
        fresh[id(block)] = outputs
    return fresh


def files_under(source_dir, path):
    """The repository's files at `path` (a file, or every file below a directory): the ones git
    tracks, so files a build or a run left there (databases in db/, say) do not change a digest;
    every file found when the source is not a git checkout."""
    full = os.path.join(source_dir, path)
    if not os.path.isdir(full):
        return [path]
    tracked = subprocess.run(["git", "-C", source_dir, "ls-files", "-z", "--", path], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    if tracked.returncode == 0:
        return sorted(name for name in tracked.stdout.decode().split("\0") if name)
    found = []
    for parent, directories, files in os.walk(full):
        directories.sort()
        found.extend(os.path.relpath(os.path.join(parent, f), source_dir) for f in sorted(files))
    return sorted(found)


def digest(blocks, source_dir, where):
    """What determines an expensive session's outputs, hashed: its depends files, its text."""
    h = hashlib.sha256()
    for entry in blocks[0].options["depends"].split():
        path, _, pattern = entry.partition("@")
        try:
            wanted = re.compile(pattern) if pattern else None
        except re.error as e:
            raise ReadmeError("%s: readme directive: depends entry '%s': bad regular expression (%s)" % (where, entry, e))
        for name in files_under(source_dir, path):
            full = os.path.join(source_dir, name)
            if not os.path.isfile(full):
                raise ReadmeError("%s: readme directive: depends names '%s', which does not exist" % (where, path))
            with open(full, "rb") as f:
                content = f.read()
            if wanted:
                lines = content.decode("utf-8", "replace").splitlines(keepends=True)
                content = "".join(line for line in lines if wanted.search(line)).encode()
                if not content:
                    raise ReadmeError("%s: readme directive: depends entry '%s' matches no line of %s" % (where, entry, name))
                name += "@" + pattern
            h.update(name.encode() + b"\0" + hashlib.sha256(content).digest())
    for block in blocks:
        h.update(repr((block.setup, sorted((k, v) for k, v in block.options.items() if k != "digest"))).encode())
        for command in block.commands:
            h.update(repr((command.text, normalise(command.output))).encode())
    return h.hexdigest()[:16]


def shown_digest(blocks):
    """A stale session's commands and shown outputs, hashed (what --mark-stale froze)."""
    h = hashlib.sha256()
    for block in blocks:
        for command in block.commands:
            h.update(repr((command.text, normalise(command.output))).encode())
    return h.hexdigest()[:16]


def stale_note(reason):
    return "> **Not re-run since %s**: this output is from an earlier build." % reason


def note_index(lines, block):
    """The README line index where a stale session's visible note belongs: the line before the
    block's setup comment, else before its directive."""
    i = block.directive_index - 1
    if block.setup is not None:
        while i >= 0 and not lines[i].startswith(SETUP_OPEN):
            i -= 1
        i -= 1
    return i


def directive_text(options):
    parts = ["session=" + options["session"]]
    for key in sorted(k for k in options if k != "session"):
        value = options[key]
        if value is True:
            parts.append(key)
        else:
            plain = re.fullmatch(r"[\w.:/+-]+", value)
            quoted = ('"%s"' % value if '"' not in value and "\\\\" not in value and not value.endswith("\\")
                      else shlex.quote(value))
            parts.append("%s=%s" % (key, value if plain else quoted))
    return "<!-- readme: %s -->" % " ".join(parts)


def block_lines(block, outputs):
    body = []
    for command, output in zip(block.commands, outputs):
        body.append("$ " + command.text)
        body.extend(output)
        if command.blank_after:
            body.append("")
    return body


def show_diff(block, outputs, path):
    shown = block_lines(block, [c.output for c in block.commands])
    now = block_lines(block, outputs)
    return "".join(difflib.unified_diff([l + "\n" for l in shown], [l + "\n" for l in now],
                                        "%s:%d (shown)" % (path, block.line), "%s:%d (what the commands print now)" % (path, block.line)))


def write_updates(path, updated, source_dir, log):
    """Writes the fresh outputs of the sessions run into the README as it is now (re-read under a
    lock, so edits made elsewhere in it while the commands ran are kept), with the expensive
    sessions' new digests. A shown output whose masked text is unchanged is left as it was."""
    with open(path, "r+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        text = f.read()
        lines = text.split("\n")
        blocks, sessions = parse(path, lines)
        drop_notes = set()   # stale sessions' visible notes, removed with their re-run
        for name, outputs in updated.items():
            members = sessions.get(name, [])
            if [[c.text for c in b.commands] for b in members] != [[c.text for c in b.commands] for b in outputs[1]]:
                raise ReadmeError("%s: session %s's commands changed while it ran; run --update again" % (path, name))
            for block, fresh in zip(members, outputs[0]):
                for command, output in zip(block.commands, fresh):
                    if normalise(command.output) != normalise(output):
                        command.output = output
            if "stale" in members[0].options:
                if lines[note_index(lines, members[0])] == stale_note(members[0].options["stale"]):
                    drop_notes.add(note_index(lines, members[0]))
                del members[0].options["stale"]
                members[0].options.pop("shown", None)
            if "expensive" in members[0].options:
                members[0].options["digest"] = digest(members, source_dir, "%s:%d" % (path, members[0].line))
        out, i = [], 0
        by_start = {b.start: b for name in updated for b in sessions[name]}
        directives = {b.directive_index: b for b in by_start.values() if "digest" in b.options}
        while i < len(lines):
            if i in drop_notes:
                i += 2 if i + 1 < len(lines) and not lines[i + 1].strip() else 1
            elif i in directives:
                out.append(directive_text(directives[i].options))
                i += 1
            elif i in by_start:
                out.extend(block_lines(by_start[i], [c.output for c in by_start[i].commands]))
                i = by_start[i].end
            else:
                out.append(lines[i])
                i += 1
        new_text = "\n".join(out)
        if new_text != text:
            f.seek(0)
            f.write(new_text)
            f.truncate()
        log("%s %s" % (path, "rewritten" if new_text != text else "unchanged"))


def mark_stale(path, lines, sessions, names, reason):
    """Marks expensive sessions stale: their directive gets stale=REASON and shown=DIGEST, and a
    visible note goes right above the block (or its setup comment)."""
    if not names or not reason.strip() or '"' in reason:
        print("readme_outputs: --mark-stale needs a reason (without double quotes) and --session NAME",
              file=sys.stderr)
        return 2
    notes = {}
    for name in names:
        first = sessions[name][0]
        if "expensive" not in first.options:
            print("readme_outputs: --mark-stale: session %s is cheap; --update re-runs it" % name, file=sys.stderr)
            return 2
        marked_before = "stale" in first.options and lines[note_index(lines, first)] == stale_note(first.options["stale"])
        first.options["stale"] = reason
        first.options["shown"] = shown_digest(sessions[name])
        lines[first.directive_index] = directive_text(first.options)
        if marked_before:
            lines[note_index(lines, first)] = stale_note(reason)
        else:
            notes[note_index(lines, first) + 1] = stale_note(reason)
    for index in sorted(notes, reverse=True):
        lines.insert(index, notes[index])
    with open(path, "w") as f:
        f.write("\n".join(lines))
    print("readme_outputs: marked %s stale" % ", ".join(names), file=sys.stderr)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true")
    action.add_argument("--update", action="store_true")
    action.add_argument("--list", action="store_true")
    action.add_argument("--mark-stale", metavar="REASON",
                        help="mark the --session NAME expensive sessions stale (see stale= above)")
    parser.add_argument("--syncscope", default="build/syncscope")
    parser.add_argument("--readme", default=None)
    parser.add_argument("--session", action="append", default=[])
    parser.add_argument("--cheap", action="store_true", help="only the sessions not marked expensive")
    parser.add_argument("--verbose", action="store_true", help="print every command's whole output on stderr")
    parser.add_argument("--run-expensive", action="store_true", help="--check: run the expensive sessions too")
    args = parser.parse_args()
    source_dir = os.path.abspath(os.environ.get("SYNCSCOPE_SOURCE_DIR") or
                                 os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    path = args.readme or os.path.join(source_dir, "README.md")
    with open(path) as f:
        text = f.read()
    lines = text.split("\n")
    try:
        blocks, sessions = parse(path, lines)
    except ReadmeError as error:
        print("readme_outputs: %s" % error, file=sys.stderr)
        return 2
    for name in args.session:
        if name not in sessions:
            print("readme_outputs: --session %s: README has no such session (it has: %s)"
                  % (name, ", ".join(sessions)), file=sys.stderr)
            return 2
    chosen = [n for n in sessions if (not args.session or n in args.session)
              and not (args.cheap and "expensive" in sessions[n][0].options)]

    if args.mark_stale is not None:
        return mark_stale(path, lines, sessions, args.session, args.mark_stale)

    if args.list:
        for name in sessions:
            kind = "expensive" if "expensive" in sessions[name][0].options else "cheap"
            print("session %s (%s)" % (name, kind))
            for block in sessions[name]:
                for command in block.commands:
                    print("  line %-5d $ %s" % (block.line, command.text))
        return 0

    if not os.access(args.syncscope, os.X_OK):
        print("readme_outputs: --syncscope %s: not an executable (build it first)" % args.syncscope, file=sys.stderr)
        return 2
    log = lambda message: print(message, file=sys.stderr, flush=True)
    failures = 0
    updated = {}
    root = tempfile.mkdtemp(prefix="readme-outputs-")
    try:
        for name in chosen:
            members = sessions[name]
            first = members[0]
            where = "%s:%d" % (path, first.line)
            expensive = "expensive" in first.options
            if args.check and expensive and not args.run_expensive:
                try:
                    now = digest(members, source_dir, where)
                except ReadmeError as error:
                    print("readme_outputs: %s" % error, file=sys.stderr)
                    return 2
                if "stale" in first.options:
                    reason = first.options["stale"]
                    if lines[note_index(lines, first)] != stale_note(reason):
                        failures += 1
                        print("%s: session %s is marked stale but the README does not say so above it: expected "
                              "the line '%s'" % (where, name, stale_note(reason)))
                    elif first.options.get("shown") != shown_digest(members):
                        failures += 1
                        print("%s: session %s is marked stale and its shown text changed since; run "
                              "scripts/readme_outputs.py --update --session %s" % (where, name, name))
                    else:
                        print("%s: session %s: STALE, not re-run since %s (the README says so); "
                              "scripts/readme_outputs.py --update --session %s re-runs it" % (where, name, reason, name))
                    continue
                if first.options.get("digest") != now:
                    failures += 1
                    stored = first.options.get("digest")
                    print("%s: session %s (expensive, not re-run here): %s: one of %s or its shown text "
                          "changed since its outputs were produced; run scripts/readme_outputs.py --update "
                          "--session %s" % (where, name, "its digest %s no longer matches %s" % (stored, now)
                                            if stored else "it has no digest yet", first.options["depends"], name))
                else:
                    log("session %s: expensive, digest %s matches (not re-run)" % (name, now))
                continue
            started = time.time()
            log("session %s%s:" % (name, " (expensive)" if expensive else ""))
            try:
                fresh = run_session(name, members, root, args.syncscope, source_dir, log, args.verbose)
            except RuntimeError as error:
                print("readme_outputs: %s" % error)
                failures += 1
                continue
            log("session %s: %.1f s" % (name, time.time() - started))
            for block in members:
                outputs = fresh[id(block)]
                same = all(normalise(c.output) == normalise(o) for c, o in zip(block.commands, outputs))
                if args.check and not same:
                    failures += 1
                    sys.stdout.write(show_diff(block, outputs, path))
            if args.update:
                updated[name] = ([fresh[id(block)] for block in members], members)
    finally:
        shutil.rmtree(root, ignore_errors=True)

    if args.update and updated:
        try:
            write_updates(path, updated, source_dir, log)
        except ReadmeError as error:
            print("readme_outputs: %s" % error, file=sys.stderr)
            return 2
    if args.check:
        if failures:
            print("readme_outputs: %d README block(s) or session(s) no longer match; "
                  "scripts/readme_outputs.py --update [--session NAME] re-runs them" % failures)
        else:
            print("readme_outputs: every shown output matches (%d sessions)" % len(chosen))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
