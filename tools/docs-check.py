#!/usr/bin/env python3
"""tools/docs-check.py: the documentation can be navigated (make test-docs).

  docs-check.py [ROOT]       check the tree at ROOT (default: this checkout)
  docs-check.py --selftest   prove each check fails on a broken copy

Checks, for ROOT/docs and ROOT/README.md:
  - every page under docs/ (docs/**/*.md) is linked from docs/README.md;
  - every relative link ([text](path), ![alt](path), with an optional
    #anchor) names a file or directory that exists, and an anchor names a
    heading of that page (GitHub's heading ids); a page named in the text
    as docs/NAME.md exists too;
  - no page speaks of sessions or issue numbers (docs describe the project
    as it is, not a journal).
Links inside code spans and fenced code blocks are not links. Prints one
line per problem as FILE:LINE: what, and exits 1 if there is any.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

LINK = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
MENTION = re.compile(r'(?<![\w/.-])docs/[\w./-]*\w\.md\b')
JOURNAL = re.compile(r'\bsessions?\b|\bissue [0-9]', re.I)


def strip_code(lines):
    """The lines with fenced blocks blanked and inline code spans removed."""
    out, fence = [], None
    for line in lines:
        m = re.match(r'\s*(```+|~~~+)', line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append('')
            continue
        if m:
            fence = m.group(1)
            out.append('')
            continue
        out.append(re.sub(r'(`+)(?:(?!\1).)+\1', '', line))
    return out


def slug(text):
    """GitHub's id of a heading: lower case, markup and punctuation dropped,
    spaces to hyphens."""
    t = re.sub(r'`([^`]*)`', r'\1', text.strip())
    t = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', t)
    t = re.sub(r'[*_]{1,2}([^*_]+)[*_]{1,2}', r'\1', t)
    t = t.lower()
    t = re.sub(r'[^\w\- ]', '', t)
    return t.replace(' ', '-')


def anchors(path, cache={}):
    if path not in cache:
        ids, seen = set(), {}
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in strip_code(f.read().split('\n')):
                m = re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', line)
                if m:
                    s = slug(m.group(1))
                    n = seen.get(s, 0)
                    seen[s] = n + 1
                    ids.add(s if n == 0 else '%s-%d' % (s, n))
        cache[path] = ids
    return cache[path]


def pages(root):
    out = []
    for d, _, fs in os.walk(os.path.join(root, 'docs')):
        out += [os.path.join(d, f) for f in fs if f.endswith('.md')]
    return sorted(out)


def check(root):
    root = os.path.abspath(root)
    probs = []
    index = os.path.join(root, 'docs', 'README.md')
    files = pages(root)
    readme = os.path.join(root, 'README.md')
    if os.path.exists(readme):
        files.append(readme)
    linked = set()
    for path in files:
        rel = os.path.relpath(path, root)
        with open(path, encoding='utf-8', errors='replace') as f:
            raw = f.read().split('\n')
        for no, line in enumerate(strip_code(raw), 1):
            for m in MENTION.finditer(raw[no - 1]):
                if not os.path.exists(os.path.join(root, m.group(0))):
                    probs.append('%s:%d: names %s: no such page' % (rel, no, m.group(0)))
            if JOURNAL.search(raw[no - 1]):
                probs.append('%s:%d: speaks of a session or an issue: %s'
                             % (rel, no, raw[no - 1].strip()[:80]))
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r'[a-z][a-z0-9+.-]*:', target, re.I):
                    continue                    # http:, https:, mailto: ...
                file_part, _, anchor = target.partition('#')
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                    if file_part else path
                if not os.path.exists(dest):
                    probs.append('%s:%d: link to %s: no such file' % (rel, no, target))
                    continue
                if path == index:
                    linked.add(dest)
                if anchor and dest.endswith('.md') and anchor not in anchors(dest):
                    probs.append('%s:%d: link to %s: no heading with id #%s in %s'
                                 % (rel, no, target, anchor, os.path.relpath(dest, root)))
    if not os.path.exists(index):
        probs.append('docs/README.md: missing (the index of every page)')
    else:
        for p in pages(root):
            if p != index and p not in linked:
                probs.append('docs/README.md: %s is not listed'
                             % os.path.relpath(p, os.path.join(root, 'docs')))
    return probs


def selftest():
    """A copy of the docs with one fault of each kind: each must be found."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    faults = [
        ('an unlisted page', 'docs/new-page.md', None, 'new-page.md is not listed'),
        ('a broken link', 'docs/architecture.md', '[x](no-such-page.md)', 'no such file'),
        ('a broken anchor', 'docs/architecture.md', '[x](user-guide.md#no-such-heading)',
         'no heading with id #no-such-heading'),
        ('a deleted page named in the text', 'README.md', 'See docs/workloads-2.md.',
         'names docs/workloads-2.md: no such page'),
        ('a journal', 'docs/architecture.md', 'In the third session we added it.',
         'speaks of a session'),
    ]
    bad = 0
    clean = check(root)
    if clean:
        print('FAIL docs-check selftest: the tree itself has problems', file=sys.stderr)
        return 1
    for what, rel, text, want in faults:
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(root, 'docs'), os.path.join(tmp, 'docs'))
            shutil.copy(os.path.join(root, 'README.md'), tmp)
            with open(os.path.join(tmp, rel), 'a') as f:
                f.write('\n%s\n' % (text or '# A page nobody lists'))
            got = check(tmp)
            if any(want in p for p in got):
                print('ok   docs-check finds %s' % what)
            else:
                print('FAIL docs-check misses %s: %s' % (what, got), file=sys.stderr)
                bad = 1
    return bad


def main():
    if sys.argv[1:] == ['--selftest']:
        return selftest()
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    probs = check(root)
    for p in probs:
        print(p)
    if probs:
        print('docs-check: %d problems' % len(probs), file=sys.stderr)
        return 1
    print('docs-check: %d pages, every page indexed, every relative link resolves'
          % len(pages(root)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
