#!/usr/bin/env python3
"""Helper of scripts/default-method.sh: export real data sets, run `ngca fit`
with every method and seed, and evaluate the bases (feature selection, k-NN
class separation, stability across seeds, time). See docs/default-method.md."""
import argparse, itertools, json, os, resource, shlex, subprocess, sys, time
import numpy as np

SEED = 20240601  # fixed seed of the row subsamples


def read_libsvm(path):
    ys, rows, dmax = [], [], 0
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            ys.append(float(p[0]))
            r = {}
            for it in p[1:]:
                k, v = it.split(':')
                r[int(k)] = float(v)
                dmax = max(dmax, int(k))
            rows.append(r)
    X = np.zeros((len(rows), dmax))
    for i, r in enumerate(rows):
        for k, v in r.items():
            X[i, k - 1] = v
    return X, np.array(ys)


def write_csv(path, X, y, names):
    with open(path, 'w') as f:
        f.write(','.join(names + ['label']) + '\n')
        for r, t in zip(X, y):
            f.write(','.join(repr(float(v)) for v in r) + ',' + (str(int(t)) if float(t).is_integer() else repr(float(t))) + '\n')


def cmd_export(a):
    from sklearn import datasets as D
    os.makedirs(a.out, exist_ok=True)
    sets = []
    rng = np.random.default_rng(SEED)

    def add(name, X, y, names, kind, source, note=''):
        keep = [j for j in range(X.shape[1]) if np.ptp(X[:, j]) > 0]
        dropped = [names[j] for j in range(X.shape[1]) if j not in keep]
        X, names = X[:, keep], [names[j] for j in keep]
        names = [''.join(c if c.isalnum() or c == '_' else '_' for c in s) for s in names]
        write_csv(os.path.join(a.out, name + '.csv'), X, y, names)
        np.savetxt(os.path.join(a.out, name + '.data.csv'), X, delimiter=',', fmt='%.17g')
        classes = sorted(set(y.tolist())) if kind == 'classes' else []
        sets.append(dict(name=name, n=X.shape[0], d=X.shape[1], kind=kind, classes=len(classes),
                         source=source, dropped=len(dropped), note=note))

    for fn, nm in [('load_iris', 'iris'), ('load_wine', 'wine'), ('load_breast_cancer', 'breast_cancer'),
                   ('load_digits', 'digits'), ('load_diabetes', 'diabetes')]:
        b = getattr(D, fn)()
        names = list(b.feature_names) if hasattr(b, 'feature_names') else ['x%d' % (j + 1) for j in range(b.data.shape[1])]
        kind = 'continuous' if nm == 'diabetes' else 'classes'
        add(nm, b.data.astype(float), b.target, names, kind, 'sklearn ' + fn)
    for fn, nm in [('vehicle.scale', 'vehicle'), ('svmguide3', 'svmguide3'), ('svmguide1', 'svmguide1'),
                   ('shuttle.trn', 'shuttle'), ('ijcnn1', 'ijcnn1')]:
        X, y = read_libsvm(os.path.join(a.libsvm, fn))
        n0 = X.shape[0]
        note = ''
        if n0 > a.max_rows:
            idx = np.sort(rng.choice(n0, a.max_rows, replace=False))
            X, y = X[idx], y[idx]
            note = '%d of %d rows' % (a.max_rows, n0)
        add(nm, X, y, ['f%d' % (j + 1) for j in range(X.shape[1])], 'classes', 'LIBSVM ' + fn, note)
    # Row subsamples for the sample-size sweep of the robust variant.
    for s in sets:
        if s['name'] not in a.sweep.split(','):
            continue
        src = os.path.join(a.out, s['name'])
        lines = open(src + '.csv').read().splitlines()
        data = open(src + '.data.csv').read().splitlines()
        for n in [int(v) for v in a.sweep_n.split(',')]:
            if n >= s['n']:
                continue
            for rep in range(1, a.sweep_reps + 1):
                r = np.random.default_rng([SEED, n, rep])
                idx = np.sort(r.choice(s['n'], n, replace=False))
                X = np.loadtxt(data, delimiter=',', ndmin=2)[idx]
                if any(np.ptp(X[:, j]) == 0 for j in range(X.shape[1])):
                    continue  # a constant column in this subsample: skipped (counted in the table)
                with open('%s.n%d.r%d.csv' % (src, n, rep), 'w') as f:
                    f.write(lines[0] + '\n' + '\n'.join(lines[1 + i] for i in idx) + '\n')
    json.dump(sets, open(os.path.join(a.out, 'datasets.json'), 'w'), indent=1)
    for s in sets:
        print('%-14s n=%-5d d=%-3d %s %s dropped-constant=%d %s' % (s['name'], s['n'], s['d'], s['kind'], s['classes'], s['dropped'], s['note']))


METHODS = [  # (key, label, ngca fit flags)
    ('wflsngca', 'WF-LSNGCA (faithful)', ['-method', 'wflsngca']),
    ('robust', 'WF-LSNGCA robust (command default)', ['-method', 'wflsngca-robust']),
    ('lsngca', 'LSNGCA', ['-method', 'lsngca']),
    ('mipp', 'MIPP', ['-method', 'mipp']),
]
ABLATIONS = [  # (key, label, flags of the ablation helper: RobustOptions the command does not expose)
    ('robust-nonull', 'robust, null test off (NullZ < 0)', ['-nullz', '-1']),
    ('robust-axes', 'robust, axes path only', ['-path', 'axes']),
    ('robust-equi', 'robust, equivariant path only', ['-path', 'equivariant']),
]
ROBUST_LEVEL = 0.01  # RobustReport.Level: the level of the test of the axes estimate
ROBUST_MAX_DISTANCE = 4  # RobustReport.MaxDistance: the bound on its Distance from the equivariant estimate
ROBUST_MISSED_MARGIN = 3  # RobustReport.MissedMargin: the margin of the comparison beyond that bound
ALL_LABELS = dict([(k, l) for k, l, _ in METHODS] + [(k, l) for k, l, _ in ABLATIONS])


def dims_for(s):
    ms = {2}
    if s['kind'] == 'classes' and s['classes'] >= 2:
        ms.add(s['classes'] - 1)
    return sorted(m for m in ms if 1 <= m < s['d'])


def zero_rows(B, tol=1e-12):
    return int(sum(1 for r in B if all(abs(v) < tol for v in r)))


def timed(argv):
    """Runs argv; returns the process, its wall time and its CPU time (user + system, all threads):
    the CPU time hardly depends on other work on the machine, the wall time does."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p, wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


ROBUST_PATHS = ['adaptive', 'axes', 'equivariant']  # the report's Path of earlier versions


def robust_block(j):
    """The robust variant's report of a `ngca fit -json` file in the shape of the
    ablation helper: path by name, wald, p and distance None when not finite,
    kernel and null columns numbered from 1. Files of earlier versions have the
    block as "robust". The report of `ngca fit -json` now holds the estimate
    returned (Estimate), P, Distance and NullCoords only: wald, df, refined and
    kernel_coords are then None (the ablation helper, which reads the library's
    detail through internal/studyhook, still gives them)."""
    if 'robust' in j:
        return j['robust']
    rep = j.get('report') or {}
    if rep.get('type') != 'RobustReport':
        return None
    v = rep['value']
    finite = lambda x: None if isinstance(x, str) else x  # "NaN", "+Inf", "-Inf"
    path = v['Estimate'] if 'Estimate' in v else ROBUST_PATHS[v['Path']]
    kc = v.get('KernelCoords')
    return dict(path=path, wald=finite(v.get('Wald')), df=v.get('DF'), p=finite(v['P']),
                distance=finite(v['Distance']), refined=v.get('Refined'),
                kernel_coords=None if kc is None else [k + 1 for k in kc], null_coords=[k + 1 for k in v['NullCoords'] or []])


def fit_one(cmd, args, path, outjson):
    p, wall, cpu = timed(cmd + args + ['-json', '-o', outjson, path])
    if p.returncode != 0:
        return dict(ok=False, err=p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'exit %d' % p.returncode, wall=wall, cpu=cpu)
    j = json.load(open(outjson))
    return dict(ok=True, wall=wall, cpu=cpu, basis=j['basis'], cols=j.get('column_numbers'), robust=robust_block(j), fit_seconds=j.get('timings', {}).get('total'))


def ablate_one(helper, args, path):
    p, wall, cpu = timed([helper] + args + [path])
    if p.returncode != 0:
        return dict(ok=False, err=p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'exit %d' % p.returncode, wall=wall, cpu=cpu)
    j = json.loads(p.stdout)
    return dict(ok=True, wall=wall, cpu=cpu, basis=j['basis'], robust=j.get('robust'), fit_seconds=j.get('seconds'))


def cmd_run(a):
    sets = json.load(open(os.path.join(a.data, 'datasets.json')))
    cmd = shlex.split(a.ngca) + ['fit']
    seeds = list(range(1, a.seeds + 1))
    aseeds = list(range(1, a.ablation_seeds + 1))
    runs = open(os.path.join(a.out, 'runs.jsonl'), 'w')
    tmp = os.path.join(a.out, 'fit.json')
    only = set(a.only.split(',')) if a.only else None
    t_start = time.time()

    def log(rec):
        try:
            rec['load1'] = float(open('/proc/loadavg').read().split()[0])  # other work on the machine inflates 'wall'
        except OSError:
            pass
        runs.write(json.dumps(rec) + '\n')
        runs.flush()
        r = rec.get('robust') or {}
        print('%7.1fs %-14s n=%-5d M=%-2d %-14s seed %-2d %s %6.2fs cpu %6.2fs %s' % (
            time.time() - t_start, rec['dataset'], rec['n'], rec['M'], rec['method'], rec['seed'],
            'ok ' if rec['ok'] else 'ERR', rec['wall'], rec.get('cpu', 0),
            ('zero %d/%d' % (zero_rows(rec['basis']), rec['d'])) + (' path=%s p=%s W=%s df=%s null=%s' % (
                r.get('path'), r.get('p'), r.get('wald'), r.get('df'), r.get('null_coords')) if r else '')
            if rec['ok'] else rec['err']), flush=True)

    for s in sets:
        if only and s['name'] not in only:
            continue
        path = os.path.join(a.data, s['name'] + '.csv')
        dpath = os.path.join(a.data, s['name'] + '.data.csv')
        for M in dims_for(s):
            ss = seeds if s['d'] <= a.big_d else seeds[:a.big_seeds]
            for key, _, flags in METHODS:
                for seed in ss:
                    r = fit_one(cmd, flags + ['-dim', str(M), '-seed', str(seed), '-label-col', 'label'], path, tmp)
                    log(dict(kind='main', dataset=s['name'], n=s['n'], d=s['d'], M=M, method=key, seed=seed, **r))
            if a.ablate and (s['d'] <= a.big_d or M == 2):
                for key, _, flags in ABLATIONS:
                    for seed in aseeds:
                        r = ablate_one(a.ablate, flags + ['-dim', str(M), '-seed', str(seed)], dpath)
                        log(dict(kind='ablation', dataset=s['name'], n=s['n'], d=s['d'], M=M, method=key, seed=seed, **r))
    # Sample-size sweep of the robust variant (M = 2).
    for s in sets:
        if only and s['name'] not in only:
            continue
        pre = s['name'] + '.n'
        files = [f for f in os.listdir(a.data) if f.startswith(pre) and f.endswith('.csv')]
        key = lambda f: (int(f[len(pre):].split('.')[0]), int(f.split('.r')[-1].split('.')[0]))
        for f in sorted(files, key=key):
            n, rep = key(f)
            r = fit_one(cmd, ['-method', 'wflsngca-robust', '-dim', '2', '-seed', str(rep), '-label-col', 'label'],
                        os.path.join(a.data, f), tmp)
            log(dict(kind='sweep', dataset=s['name'], n=n, d=s['d'], M=2, method='robust', seed=rep, **r))
    os.remove(tmp) if os.path.exists(tmp) else None
    print('total %.0f s' % (time.time() - t_start))


SYN_CELLS = [('aligned', 0.0), ('aligned', 1.5), ('turned', 0.0)]
DEMO_LABELS = {'WF-LSNGCA': 'wflsngca', 'WF-LSNGCA robust': 'robust', 'LSNGCA': 'lsngca', 'MIPP': 'mipp'}


def cmd_synthetic(a):
    """The paper's artificial data at small n: `ngca demo` (every method, the
    binary under test) and the ablation helper (robust, default and with the
    null test off: ε, path, p-value of the Wald test, number of null
    coordinates)."""
    import re
    cmd = shlex.split(a.ngca)
    f = open(os.path.join(a.out, 'synthetic.jsonl'), 'w')
    t0 = time.time()
    pat = re.compile(r'^\((\w)\) .*?\s{2,}(WF-LSNGCA robust|WF-LSNGCA|LSNGCA|MIPP)\s+(\S+)\s+([0-9.]+)s\s*$')
    for n in [int(v) for v in a.n.split(',')]:
        seeds = list(range(1, (a.seeds if n < 2000 else a.seeds_2000) + 1))
        for orient, r in SYN_CELLS:
            for seed in seeds:
                rot = ['-rotate'] if orient == 'turned' else []
                if n < 2000:
                    p = subprocess.run(cmd + ['demo', '-n', str(n), '-r', str(r), '-seed', str(seed)] + rot,
                                       capture_output=True, text=True)
                    if p.returncode != 0:
                        f.write(json.dumps(dict(src='demo', n=n, orient=orient, r=r, seed=seed, err=p.stderr.strip())) + '\n')
                    for line in p.stdout.splitlines():
                        m = pat.match(line)
                        if m:
                            f.write(json.dumps(dict(src='demo', n=n, orient=orient, r=r, seed=seed, dist=m.group(1),
                                                    method=DEMO_LABELS[m.group(2)], eps=float(m.group(3)), seconds=float(m.group(4)))) + '\n')
                if a.ablate:
                    for key, flags in [('robust-helper', []), ('robust-nonull', ['-nullz', '-1'])]:
                        p = subprocess.run([a.ablate, '-artificial', 'a,b,c,d', '-n', str(n), '-r', str(r), '-seed', str(seed)] + rot + flags,
                                           capture_output=True, text=True)
                        for line in p.stdout.splitlines():
                            j = json.loads(line)
                            f.write(json.dumps(dict(src='helper', n=n, orient=orient, r=r, seed=seed, method=key, **j)) + '\n')
                        if p.returncode != 0:
                            f.write(json.dumps(dict(src='helper', n=n, orient=orient, r=r, seed=seed, method=key, err=p.stderr.strip())) + '\n')
                f.flush()
                print('%7.1fs synthetic n=%d %s r=%g seed %d' % (time.time() - t0, n, orient, r, seed), flush=True)
    print('synthetic total %.0f s' % (time.time() - t0))


def synthetic_report(out, w):
    path = os.path.join(out, 'synthetic.jsonl')
    if not os.path.exists(path):
        return
    recs = [json.loads(l) for l in open(path)]
    if not recs:
        return
    w('### The paper\'s artificial data at small n (d = 10, M = 2)')
    w('')
    w('Mean subspace error ε to the true subspace over the seeds, per distribution (a) / (b) / (c) / (d). '
      'WF-LSNGCA, LSNGCA, MIPP and "robust" from `ngca demo -n N -r R -seed S [-rotate]`; '
      '"robust, null test off" from the helper on the same data and estimator seeds; "null coords" is the mean '
      'number of coordinates (of 10) the robust variant\'s null test set to zero and "eq." how many fits returned '
      'the equivariant estimate, i.e. how many axes estimates failed a check (test p < %g, or Distance > %g and not kept by the comparison; of 4 × seeds). At n = 2000 only the helper ran (default and null test off); '
      'the other methods at n = 2000: docs/errors.md and docs/turned/errors.md.' % (ROBUST_LEVEL, ROBUST_MAX_DISTANCE))
    w('')
    cols = [('wflsngca', 'demo', 'WF-LSNGCA'), ('lsngca', 'demo', 'LSNGCA'), ('mipp', 'demo', 'MIPP'),
            ('robust', 'demo', 'robust'), ('robust-helper', 'helper', 'robust (helper)'), ('robust-nonull', 'helper', 'robust, null test off')]
    ns = sorted(set(r['n'] for r in recs))
    present = [c for c in cols if any(r.get('method') == c[0] and r['src'] == c[1] for r in recs)]
    w('| data | n | seeds | ' + ' | '.join(c[2] for c in present) + ' | robust: null coords, eq. | null test off: null coords, eq. |')
    w('|---|---|---|' + '---|' * len(present) + '---|---|')
    for orient, r in SYN_CELLS:
        for n in ns:
            rs = [x for x in recs if x['orient'] == orient and x['r'] == r and x['n'] == n and 'err' not in x]
            if not rs:
                continue
            cells = []
            for key, src, _ in present:
                if key == 'robust-helper' and any(x['method'] == 'robust' and x['src'] == 'demo' for x in rs):
                    cells.append('(same)')
                    continue
                v = []
                for dist in 'abcd':
                    e = [x['eps'] for x in rs if x['method'] == key and x['src'] == src and x.get('dist') == dist]
                    v.append('%.2g' % np.mean(e) if e else '–')
                cells.append(' / '.join(v) if any(t != '–' for t in v) else '')
            extra = []
            for key in ['robust-helper', 'robust-nonull']:
                h = [x for x in rs if x['method'] == key]
                extra.append('%.1f, %d of %d' % (np.mean([x['null'] for x in h]), sum(x['path'] == 'equivariant' for x in h), len(h)) if h else '')
            seeds = len(set(x['seed'] for x in rs))
            w('| %s r = %g | %d | %d | %s | %s |' % (orient, r, n, seeds, ' | '.join(cells), ' | '.join(extra)))
    errs = [x for x in recs if 'err' in x]
    for x in errs:
        w('- failed: %s' % json.dumps(x))
    w('')


def full_basis(r, d):
    """The fit's basis on all d data columns of the exported table: the command
    leaves columns out on its own (constant ones, also once the rows far from the
    rest are left out), which get zero rows; the JSON's column_numbers say which
    columns (1-based; the label is the last column) the basis rows are."""
    B = np.asarray(r['basis'], dtype=float)
    cols = r.get('cols')
    if not cols or B.shape[0] == d:
        return B
    F = np.zeros((d, B.shape[1]))
    for i, c in enumerate(cols):
        F[c - 1] = B[i]
    return F


def load_xy(data, name):
    X = np.loadtxt(os.path.join(data, name + '.data.csv'), delimiter=',', ndmin=2)
    y = np.array([float(l.rsplit(',', 1)[1]) for l in open(os.path.join(data, name + '.csv')).read().splitlines()[1:]])
    return X, y


def knn_score(Z, y, kind):
    import warnings
    from sklearn.model_selection import StratifiedKFold, KFold, cross_val_score
    from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        if kind == 'classes':
            est, cv = KNeighborsClassifier(5), StratifiedKFold(5, shuffle=True, random_state=0)
            return cross_val_score(make_pipeline(StandardScaler(), est), Z, y.astype(int), cv=cv).mean()
        est, cv = KNeighborsRegressor(5), KFold(5, shuffle=True, random_state=0)
        return cross_val_score(make_pipeline(StandardScaler(), est), Z, y, cv=cv, scoring='r2').mean()


def orth_std(B, sd):
    """Orthonormal basis (in standardised coordinates) of the projection x ↦ Bᵀx."""
    Q, R = np.linalg.qr(np.asarray(B) * sd[:, None])
    return Q


def eps(Q1, Q2):
    M = Q1.shape[1]
    R = Q2 - Q1 @ (Q1.T @ Q2)
    return float((R ** 2).sum() / M)


def fmt(v, p=2):
    return '–' if v is None else ('%.*f' % (p, v))


def sweep_cell(r):
    if not r['ok']:
        return 'failed'
    z, k, path = zero_rows(r['basis']), len(r['robust']['null_coords']), r['robust']['path']
    return '%d/%d %s' % (z, r['d'], path[0]) + (' (null %d)' % k if path == 'axes' and k != z else '')


def cmd_report(a):
    sets = {s['name']: s for s in json.load(open(os.path.join(a.data, 'datasets.json')))}
    recs = [json.loads(l) for l in open(os.path.join(a.out, 'runs.jsonl'))]
    keys = [k for k, _, _ in METHODS] + [k for k, _, _ in ABLATIONS]
    groups = {}
    for r in recs:
        if r['kind'] in ('main', 'ablation'):
            groups.setdefault((r['dataset'], r['M']), {}).setdefault(r['method'], []).append(r)
    order = [(n, M) for n in sets for M in dims_for(sets[n]) if (n, M) in groups]
    cache, res = {}, {}
    for (name, M) in order:
        s = sets[name]
        if name not in cache:
            X, y = load_xy(a.data, name)
            cache[name] = (X, y, X.mean(0), X.std(0))
        X, y, mu, sd = cache[name]
        from sklearn.decomposition import PCA
        Xs = (X - mu) / sd
        base = dict(all=knn_score(Xs, y, s['kind']), pca=knn_score(PCA(M).fit_transform(Xs), y, s['kind']))
        row = {}
        for k in keys:
            rs = groups[(name, M)].get(k)
            if not rs:
                continue
            ok = [r for r in rs if r['ok']]
            Bs = [full_basis(r, X.shape[1]) for r in ok]
            accs = [knn_score((X - mu) @ B, y, s['kind']) for B in Bs]
            Qs = [orth_std(B, sd) for B in Bs]
            ep = [eps(Qs[i], Qs[j]) for i, j in itertools.combinations(range(len(Qs)), 2)]
            zr = [zero_rows(B.tolist()) for B in Bs]
            rb = [r['robust'] for r in ok if r.get('robust')]
            row[k] = dict(n=len(rs), ok=len(ok), err=[r['err'] for r in rs if not r['ok']],
                          acc=np.mean(accs) if accs else None, accsd=np.std(accs) if accs else None,
                          eps=np.mean(ep) if ep else None, zero=zr,
                          time=float(np.median([r['wall'] for r in ok])) if ok else None,
                          cpu=float(np.median([r['cpu'] for r in ok])) if ok and all('cpu' in r for r in ok) else None,
                          robust=rb, nonnull=[s['d'] - len(b['null_coords']) for b in rb])
        res[(name, M)] = (base, row)

    out = []
    w = out.append
    metric = lambda name: 'R²' if sets[name]['kind'] != 'classes' else 'acc.'

    def head(cols):
        w('| data set [n, d, classes] | M | ' + ' | '.join(cols) + ' |')
        w('|---|---|' + '---|' * len(cols))

    def dname(name):
        s = sets[name]
        return '%s [%d, %d, %s]' % (name, s['n'], s['d'], s['classes'] if s['kind'] == 'classes' else 'continuous')

    w('### Class separation: 5-fold CV accuracy of 5-NN on the M projected coordinates')
    w('')
    w('Mean over seeds (± standard deviation over seeds); a method whose fits failed shows the number failed. '
      'diabetes (continuous target): 5-fold CV R² of 5-NN regression instead. All features and PCA: '
      'the standardised data, PCA to M components.')
    w('')
    head(['all features', 'PCA'] + [ALL_LABELS[k] for k in keys])
    for (name, M) in order:
        base, row = res[(name, M)]
        cells = [fmt(base['all']), fmt(base['pca'])]
        for k in keys:
            c = row.get(k)
            if not c:
                cells.append('')
            elif c['ok'] == 0:
                cells.append('failed (%d of %d)' % (c['n'], c['n']))
            else:
                t = '%s ± %s' % (fmt(c['acc']), fmt(c['accsd']))
                if c['ok'] < c['n']:
                    t += ' [%d failed]' % (c['n'] - c['ok'])
                cells.append(t)
        w('| %s | %d | %s |' % (dname(name), M, ' | '.join(cells)))
    w('')
    w('### Feature selection: original features with zero weight (|entry| < 1e-12 in every basis column)')
    w('')
    w('Per seed, in seed order; "of d" in the heading row.')
    w('')
    head([ALL_LABELS[k] for k in keys])
    for (name, M) in order:
        base, row = res[(name, M)]
        cells = []
        for k in keys:
            c = row.get(k)
            cells.append('' if not c else ('–' if c['ok'] == 0 else ', '.join(str(z) for z in c['zero']) + ' of %d' % sets[name]['d']))
        w('| %s | %d | %s |' % (dname(name), M, ' | '.join(cells)))
    w('')
    w('### Stability across seeds: mean subspace distance ε between seeds')
    w('')
    w('ε = (1/M)·‖(I − P₁)Q₂‖²_F for every pair of seeds, bases orthonormalised in standardised coordinates; '
      '0 = the same subspace, 1 = orthogonal.')
    w('')
    head([ALL_LABELS[k] for k in keys])
    for (name, M) in order:
        base, row = res[(name, M)]
        cells = [('' if not row.get(k) else ('–' if row[k]['eps'] is None else '%.2g' % row[k]['eps'])) for k in keys]
        w('| %s | %d | %s |' % (dname(name), M, ' | '.join(cells)))
    w('')
    loads = [r['load1'] for r in recs if 'load1' in r]
    w('### Time per fit: median CPU seconds (wall seconds)')
    w('')
    w('CPU = user + system time of the process, all threads (it hardly depends on other work on the machine); '
      'wall = elapsed time of the process (reading the CSV, fitting, writing JSON) with all CPUs. On an idle '
      '2-core machine the wall time is between CPU/2 and CPU.' +
      (' One-minute load average of the machine during the fits: median %.1f, range %.1f to %.1f '
       '(a load above the number of cores means other work shared them).' % (np.median(loads), min(loads), max(loads)) if loads else ''))
    w('')
    head([ALL_LABELS[k] for k in keys])
    for (name, M) in order:
        base, row = res[(name, M)]
        cells = [('' if not row.get(k) or row[k]['time'] is None else
                  ('%s (%s)' % (fmt(row[k]['cpu']), fmt(row[k]['time'])) if row[k]['cpu'] is not None else fmt(row[k]['time']))) for k in keys]
        w('| %s | %d | %s |' % (dname(name), M, ' | '.join(cells)))
    w('')
    w('### What the robust variant did')
    w('')
    w('From the robust variant\'s report in the JSON of each fit: the estimate returned (paths); the p-value of the test of '
      '"no tilt of the index space at the axes estimate" (smallest to largest over the seeds) and its Wald statistic W '
      'with its degrees of freedom (d − M)·M ("–" when only one path ran; W = ∞, p = 0 when the test\'s regression is '
      'singular); the Distance of the axes estimate from the equivariant estimate (∞ when it is orthogonal to part of '
      'the equivariant frame); the axes estimate is returned iff p ≥ %g (RobustReport.Level) and either Distance ≤ %g '
      '(RobustReport.MaxDistance) or, beyond it, MissedEquivariant < MissedAxes − %g (RobustReport.MissedMargin); the fits whose equivariant estimate is the '
      'refined frame rather than MIPP\'s start (of those where it ran); the number of coordinates '
      'the axes estimate\'s null test left non-zero per seed (the returned basis has zero rows only on the axes path: '
      'the feature-selection table); axes-path fits with fewer non-zero coordinates than M (the basis then has '
      'arbitrary directions: eigenvalue 0); and the null coordinates of seed 1 (data columns, 1-based).' % (ROBUST_LEVEL, ROBUST_MAX_DISTANCE, ROBUST_MISSED_MARGIN))
    w('')
    w('| data set [n, d, classes] | M | variant | paths | p | W (df) | Distance | refined | non-null coordinates per seed | fits with < M | null coordinates (seed 1) |')
    w('|---|---|---|---|---|---|---|---|---|---|---|')
    for (name, M) in order:
        base, row = res[(name, M)]
        for k in ['robust', 'robust-nonull', 'robust-axes', 'robust-equi']:
            c = row.get(k)
            if not c or not c['robust']:
                continue
            paths = {}
            for b in c['robust']:
                paths[b['path']] = paths.get(b['path'], 0) + 1
            tested = [b for b in c['robust'] if b.get('p') is not None]  # both paths ran
            span = lambda v, f: (f(min(v)) if min(v) == max(v) else '%s to %s' % (f(min(v)), f(max(v)))) if v else '–'
            pt = span([b['p'] for b in tested], lambda v: '%.2g' % v)
            wt = span([float('inf') if b.get('wald') is None else b['wald'] for b in tested],
                      lambda v: '∞' if v == float('inf') else '%.3g' % v)
            if tested:
                wt += ' (%s)' % ', '.join(str(v) for v in sorted(set(b['df'] for b in tested)))
            dt = span([float('inf') if b.get('distance') is None else b['distance'] for b in tested],
                      lambda v: '∞' if v == float('inf') else '%.3g' % v)
            ran = [b for b in c['robust'] if b.get('p') is not None or b['path'] == 'equivariant']  # equivariant estimate computed
            rt = '%d of %d' % (sum(1 for b in ran if b.get('refined')), len(ran)) if ran else '–'
            nc = c['robust'][0]['null_coords']
            w('| %s | %d | %s | %s | %s | %s | %s | %s | %s | %d | %s |' % (
                dname(name), M, ALL_LABELS[k], ', '.join('%s %d' % kv for kv in sorted(paths.items())), pt, wt, dt, rt,
                ', '.join(str(v) for v in c['nonnull']), sum(1 for v, b in zip(c['nonnull'], c['robust']) if v < M and b['path'] == 'axes'),
                (' '.join(str(v) for v in nc) if nc else 'none')))
    w('')
    errs = [(name, M, k, row[k]['err']) for (name, M) in order for k in keys
            for base, row in [res[(name, M)]] if row.get(k) and row[k]['err']]
    w('### Failed fits')
    w('')
    if not errs:
        w('None.')
    for name, M, k, e in errs:
        w('- %s, M = %d, %s: %d failed; first error: `%s`' % (name, M, ALL_LABELS[k], len(e), e[0]))
    w('')
    sw = [r for r in recs if r['kind'] == 'sweep']
    if sw:
        w('### Sample size and the robust variant\'s feature selection (M = 2, default settings)')
        w('')
        w('Row subsamples of size n (fixed seeds; a subsample with a constant column is skipped); '
          'per subsample: features with zero weight / d, and the path (a = axes, e = equivariant: the test had '
          'p < %g or the Distance exceeded %g); "(null k)" on the axes path when the null test zeroed k > that many coordinates of v, so that fewer than M remained and the '
          'basis has arbitrary directions. '
          'The last column is the full data set from the tables above (seed 1).' % (ROBUST_LEVEL, ROBUST_MAX_DISTANCE))
        w('')
        ns = sorted(set(r['n'] for r in sw))
        names = [n for n in sets if any(r['dataset'] == n for r in sw)]
        w('| data set [d] | ' + ' | '.join('n = %d' % n for n in ns) + ' | full n |')
        w('|---|' + '---|' * (len(ns) + 1))
        for name in names:
            cells = []
            for n in ns:
                rs = [r for r in sw if r['dataset'] == name and r['n'] == n]
                cells.append(', '.join(sweep_cell(r) for r in rs) or '')
            full = [r for r in groups.get((name, 2), {}).get('robust', []) if r['ok'] and r['seed'] == 1]
            cells.append((sweep_cell(full[0]) + ' (n = %d)' % sets[name]['n']) if full else '')
            w('| %s [%d] | %s |' % (name, sets[name]['d'], ' | '.join(cells)))
        w('')
    synthetic_report(a.out, w)
    open(os.path.join(a.out, 'tables.md'), 'w').write('\n'.join(out) + '\n')
    json.dump({'%s/%d' % k: {'base': v[0], 'methods': {m: {kk: vv for kk, vv in c.items() if kk != 'robust'} for m, c in v[1].items()}}
               for k, v in res.items()}, open(os.path.join(a.out, 'summary.json'), 'w'), indent=1, default=float)
    print('\n'.join(out))


def main():
    p = argparse.ArgumentParser()
    sp = p.add_subparsers(dest='cmd', required=True)
    e = sp.add_parser('export')
    e.add_argument('--out', required=True)
    e.add_argument('--libsvm', required=True)
    e.add_argument('--max-rows', type=int, default=2000)
    e.add_argument('--sweep', default='')
    e.add_argument('--sweep-n', default='100,200,400,800,1600')
    e.add_argument('--sweep-reps', type=int, default=2)
    r = sp.add_parser('run')
    r.add_argument('--data', required=True)
    r.add_argument('--out', required=True)
    r.add_argument('--ngca', required=True, help='the ngca command (split like a shell word list)')
    r.add_argument('--ablate', default='', help='the ablation helper binary (empty: no ablations)')
    r.add_argument('--seeds', type=int, default=5)
    r.add_argument('--ablation-seeds', type=int, default=3)
    r.add_argument('--big-d', type=int, default=40, help='data sets with more columns get --big-seeds seeds')
    r.add_argument('--big-seeds', type=int, default=3)
    r.add_argument('--only', default='')
    y = sp.add_parser('synthetic')
    y.add_argument('--out', required=True)
    y.add_argument('--ngca', required=True)
    y.add_argument('--ablate', default='')
    y.add_argument('--n', default='200,500,2000')
    y.add_argument('--seeds', type=int, default=2)
    y.add_argument('--seeds-2000', type=int, default=1)
    q = sp.add_parser('report')
    q.add_argument('--data', required=True)
    q.add_argument('--out', required=True)
    a = p.parse_args()
    {'export': cmd_export, 'run': cmd_run, 'synthetic': cmd_synthetic, 'report': cmd_report}[a.cmd](a)


if __name__ == '__main__':
    main()
