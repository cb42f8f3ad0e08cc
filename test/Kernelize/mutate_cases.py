#!/usr/bin/env python3
"""Mutated graph cases: takes cases of ../shared/graphs, changes a few nodes at
random (ops, dtypes, sources, args, views) and feeds them to uop-translate
--kernelize-tinygrad-graph and --import-tinygrad-graph. Every run must end
with exit 0, 1 or 2 (done, a failed step, bad input), never a signal.

  mutate_cases.py UOP_TRANSLATE GRAPHS_DIR SEED COUNT"""
import glob, json, os, random, shutil, subprocess, sys, tempfile
tool, graphs, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
random.seed(seed)
cases = sorted(glob.glob(os.path.join(graphs, '*', 'case.json')))
if not cases:
    print(f"error: no graph cases in {graphs}: nothing was run"); sys.exit(1)
out = tempfile.mkdtemp()
crashes = 0; runs = 0
for it in range(count):
    c = json.load(open(random.choice(cases)))
    g = c['graph']
    for _ in range(random.randint(1, 3)):
        i = random.randrange(len(g)); n = g[i]
        k = random.randrange(4)
        if k == 0: n[0] = random.choice(['ADD','RESHAPE','EXPAND','PERMUTE','PAD','SHRINK','VIEW','REDUCE_AXIS','CAST','BITCAST','ASSIGN','COPY','CONTIGUOUS','WHERE','CONST','BUFFER','SINK','DETACH','FLIP','MUL','CMPLT'])
        elif k == 1: n[1] = random.choice(['f32','i32','bool','f16','u32','void','u64'])
        elif k == 2 and n[3]: n[3][random.randrange(len(n[3]))] = random.randrange(max(1, i))
        elif k == 3:
            a = n[2]
            if isinstance(a, list) and a:
                j = random.randrange(len(a))
                a[j] = random.choice([0, 1, -1, 3, 2**40, [0, 1], [1, 0]]) if not isinstance(a[j], list) else [random.randint(-2, 9), random.randint(-2, 9)]
            elif isinstance(a, dict) and 'views' in a:
                v = a['views'][0]; key = random.choice(['shape','strides','offset','mask'])
                if key == 'offset': v[key] = random.randint(-100, 100)
                elif key == 'mask': v[key] = None if random.random() < 0.5 else [[random.randint(0,3), random.randint(0,9)] for _ in v['shape']]
                elif v[key]: v[key][random.randrange(len(v[key]))] = random.randint(-3, 17)
    path = os.path.join(out, f'case{it}.json'); json.dump(c, open(path, 'w'))
    for args in (['--kernelize-tinygrad-graph', path], ['--import-tinygrad-graph', path]):
        p = subprocess.run([tool, *args], capture_output=True, text=True, timeout=300)
        runs += 1
        if p.returncode not in (0, 1, 2):
            crashes += 1; print('CRASH', args[0], json.dumps(c)[:2000], p.returncode, p.stderr[-300:]); break
shutil.rmtree(out, ignore_errors=True)
print(f'mutated cases: {runs} runs, {crashes} crashes')
sys.exit(1 if crashes else 0)
