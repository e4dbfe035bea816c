"""CPU per committed transaction (us) of the frames named, in two scripts/profile folders.

usage: frames.py BEFORE_DIR AFTER_DIR [PATTERN...]
A sample counts for a pattern if a frame of its stack contains it (inclusive); a pattern
"A>B" counts samples with a frame containing B above (called from) a frame containing A.
The first line is every sample. Samples are taken as 1 ms of CPU each (scripts/profile's
default interval); the folders' tpcc.log gives the committed transactions.
"""
import re
import sys


def load(d):
    txn = int(re.search(r'committed (\d+) =', open(d + '/tpcc.log').read()).group(1))
    stacks = []
    for line in open(d + '/cpu.collapsed'):
        st, n = line.rsplit(' ', 1)
        stacks.append((st.split(';'), int(n)))
    return txn, stacks


def matches(frames, pattern):
    outer, _, inner = pattern.partition('>')
    for i, f in enumerate(frames):
        if outer in f:
            return not inner or any(inner in g for g in frames[i + 1:])
    return False


def inclusive(profile, pattern):
    txn, stacks = profile
    return sum(n for frames, n in stacks if matches(frames, pattern)) * 1000 / txn


a, b = load(sys.argv[1]), load(sys.argv[2])
for pattern in [''] + sys.argv[3:]:
    print('%-45s %8.2f %8.2f' % (pattern or 'all', inclusive(a, pattern), inclusive(b, pattern)))
