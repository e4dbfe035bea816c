"""CPU per committed transaction (us) of the frames named, in two scripts/profile folders.

usage: frames.py BEFORE_DIR AFTER_DIR [SUBSTRING...]
A sample counts for a substring if any frame of its stack contains it (inclusive); the first
line is every sample. The folders' tpcc.log gives the committed transactions.
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


def inclusive(profile, sub):
    txn, stacks = profile
    return sum(n for frames, n in stacks if any(sub in f for f in frames)) * 1000 / txn


a, b = load(sys.argv[1]), load(sys.argv[2])
for sub in [''] + sys.argv[3:]:
    print('%-45s %8.2f %8.2f' % (sub or 'all', inclusive(a, sub), inclusive(b, sub)))
