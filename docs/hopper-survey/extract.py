# Extract the (single) gpu.module body from lowered MLIR into a builtin module for mlir-translate.
import sys,re
src=open(sys.argv[1]).read()
lines=src.split('\n')
out=[];depth=None
for i,l in enumerate(lines):
    if depth is None:
        if re.match(r'\s*gpu\.module @',l):
            depth=0; out.append('module {'); continue
    else:
        depth+=l.count('{')-l.count('}')
        if depth<0: out.append('}'); break
        out.append(l)
open(sys.argv[2],'w').write('\n'.join(out)+'\n')
