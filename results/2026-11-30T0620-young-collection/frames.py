#!/usr/bin/env python3
"""CPU per committed transaction (us; async-profiler samples of 1 ms, the measured window) of
the stacks that hold each of the given frame substrings (inclusive) and of those whose
innermost frame holds it (self), per scripts/profile folder.

usage: frames.py SUBSTRING[,SUBSTRING...] PROFILE_DIR..."""
import collections,json,sys,re
pats=sys.argv[1].split(',')
for d in sys.argv[2:]:
    n=json.load(open(d+'/summary.json'))['committed']
    inc=collections.Counter(); selfc=collections.Counter()
    for line in open(d+'/cpu.collapsed'):
        st,c=line.rsplit(' ',1); c=int(c)
        fr=[f.rsplit('_[',1)[0] for f in st.split(';')]
        for p in pats:
            if any(p in f for f in fr): inc[p]+=c
            if p in fr[-1]: selfc[p]+=c
    # samples are 1ms of CPU each
    print(d, ' '.join('%s=%.2f/%.2f'%(p,inc[p]*1000/n,selfc[p]*1000/n) for p in pats))
