#!/usr/bin/env python3
"""docs/brushes.md's tables: every stock brush painted by libmypaint and by Quicksilver, by the
playing protocol, compared.

  brush_table.py --mypaint .build/bench/mypaint-render --quicksilver .build/release/brush-render \
                 [--events FILE] [--brushes DIR] [--only PREFIX] [--stage precision|speed] OUT.tsv

precision: each brush over the recording first painted with classic/marker_fat (so erasers, smudges
and lock-alpha brushes have paint to work on), PSNR over white against libmypaint at the three
depths (Dabs' DabPrecision: eightBit, perStroke, fifteenBit).
speed: each brush on a blank canvas, both whole processes timed one after the other (the better of
two runs each), with the PSNR of Quicksilver's picture (perStroke, the depth chosen).

Writes one tab-separated line a brush to OUT.tsv as it goes (a brush already in it is skipped, so
an interrupted run goes on where it stopped)."""
import argparse, os, subprocess, sys, tempfile, time

UNDER = ['classic/marker_fat', '#e0a030', '37', '23']
COLOR = '#3060c0'

def run(cmd):
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if p.returncode != 0:
        sys.exit(f'brush_table.py: {" ".join(cmd)} failed: {p.stderr.strip()}')
    return elapsed, p.stdout

def psnr(stdout):
    for line in stdout.splitlines():
        if line.startswith('psnr '):
            return float(line.split()[1])
    return float('nan')

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mypaint', required=True)
    ap.add_argument('--quicksilver', required=True)
    ap.add_argument('--events', default=os.path.join(os.path.dirname(__file__), '../../../shared/corpus/painting30sec.dat'))
    ap.add_argument('--brushes', default='/usr/share/mypaint-data/2.0/brushes')
    ap.add_argument('--only', default='')
    ap.add_argument('--stage', choices=['precision', 'speed'], default='speed')
    ap.add_argument('out')
    a = ap.parse_args()
    names = sorted(os.path.join(pack, f[:-4]) for pack in os.listdir(a.brushes) if os.path.isdir(os.path.join(a.brushes, pack))
                   for f in os.listdir(os.path.join(a.brushes, pack)) if f.endswith('.myb'))
    names = [n for n in names if n.startswith(a.only)]
    done = set()
    if os.path.exists(a.out):
        done = {line.split('\t')[0] for line in open(a.out)}
    tmp = tempfile.mkdtemp(prefix='brush-table-')
    ref, ours = os.path.join(tmp, 'ref.png'), os.path.join(tmp, 'ours.png')
    under_c = ['--under', os.path.join(a.brushes, UNDER[0] + '.myb')] + UNDER[1:]
    with open(a.out, 'a') as out:
        for name in names:
            if name in done:
                continue
            myb = os.path.join(a.brushes, name + '.myb')
            if a.stage == 'precision':
                run([a.mypaint, myb, COLOR, a.events, ref] + under_c)
                row = [name]
                for precision in ['eightBit', 'perStroke', 'fifteenBit']:
                    _, stdout = run([a.quicksilver, myb, COLOR, a.events, ours, '--precision', precision, '--psnr', ref,
                                     '--under'] + UNDER)
                    row.append(f'{psnr(stdout):.2f}')
            else:
                theirs = min(run([a.mypaint, myb, COLOR, a.events, ref])[0] for _ in range(2))
                times = []
                for _ in range(2):
                    t, stdout = run([a.quicksilver, myb, COLOR, a.events, ours, '--psnr', ref])
                    times.append(t)
                row = [name, f'{psnr(stdout):.2f}', f'{theirs:.3f}', f'{min(times):.3f}', f'{min(times) / theirs:.3f}']
            out.write('\t'.join(row) + '\n')
            out.flush()
            print('\t'.join(row), flush=True)

if __name__ == '__main__':
    main()
