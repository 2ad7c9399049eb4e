#!/usr/bin/env python3
"""Every relative link of the Markdown documentation resolves.

Checks README.md and every *.md under doc/ (doc/results/ included): a link
[text](target) whose target is not a URL must name an existing file or
directory, relative to the page; a #fragment on a Markdown page must match
one of that page's headings, as GitHub turns a heading into an anchor
(lower case, punctuation dropped, spaces to hyphens). Links inside fenced
code blocks and inline code are ignored. Usage: check-doc-links.py SRCDIR
"""
import os
import re
import sys

LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def lines_outside_code(path):
    fence = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith('```'):
                fence = not fence
                continue
            if not fence:
                yield n, line


def anchors(path, cache={}):
    if path not in cache:
        found = set()
        for _, line in lines_outside_code(path):
            m = re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', line)
            if m:
                found.add(slug(m.group(1).replace('`', '')))
        cache[path] = found
    return cache[path]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    pages = [os.path.join(root, 'README.md')]
    for d, _, files in os.walk(os.path.join(root, 'doc')):
        pages += [os.path.join(d, f) for f in sorted(files) if f.endswith('.md')]
    bad = 0
    for page in pages:
        for n, line in lines_outside_code(page):
            for target in LINK.findall(re.sub(r'`[^`]*`', '', line)):
                if re.match(r'[a-z]+:', target):
                    continue
                name, _, frag = target.partition('#')
                dest = os.path.normpath(os.path.join(os.path.dirname(page), name)) if name else page
                where = '%s:%d: %s' % (os.path.relpath(page, root), n, target)
                if not os.path.exists(dest):
                    print('%s: no such file' % where)
                    bad += 1
                elif frag and dest.endswith('.md') and frag not in anchors(dest):
                    print('%s: no such heading' % where)
                    bad += 1
    print('%d pages, %d broken links' % (len(pages), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
