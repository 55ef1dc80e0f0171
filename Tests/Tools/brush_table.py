#!/usr/bin/env python3
"""docs/brushes.md's tables: every stock brush painted by libmypaint and by Quicksilver, by the
playing protocol, compared.

  brush_table.py --mypaint .build/bench/mypaint-render --brush-render .build/release/brush-render \
                 --quicksilver .build/release/quicksilver [--events FILE] [--brushes DIR] [--only PREFIX] \
                 [--stage precision|speed] OUT.tsv

precision: each brush over the recording first painted with classic/marker_fat (so erasers, smudges
and lock-alpha brushes have paint to work on), PSNR over white against libmypaint at the three
depths (Dabs' DabPrecision: eightBit, perStroke, fifteenBit).
speed: each brush on a blank canvas: libmypaint's program painting the recording, and `quicksilver
render` playing it as a replay (the brush event, then every event one pointer line, by the playing
protocol: docs/journal.md), both whole processes timed one after the other (the better of two runs
each), with the PSNR of render's picture against libmypaint's.

Writes one tab-separated line a brush to OUT.tsv as it goes (a brush already in it is skipped, so
an interrupted run goes on where it stopped). With --markdown DOC (speed), the table of every brush
in OUT.tsv then replaces what lies between DOC's `<!-- brush-table -->` and `<!-- /brush-table -->`,
with the median time ratio and the brushes under 40 dB counted."""
import argparse, json, os, subprocess, sys, tempfile, time

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

WIDTH, HEIGHT = 1024, 768   # mypaint-render's canvas

def replay(events_path, name, myb, color, out):
    """The recording as a replay: the brush (its settings embedded), then each event one pointer
    line (the first a down), then an up where the last one was."""
    events = [[float(x) for x in line.split()] for line in open(events_path) if line.strip()]
    settings = json.load(open(myb))
    with open(out, 'w') as f:
        f.write(json.dumps({"quicksilver": 1, "width": WIDTH, "height": HEIGHT}) + "\n")
        f.write(json.dumps({"t": events[0][0], "type": "brush", "kind": "mypaint", "name": name, "color": color,
                            "settings": settings}) + "\n")
        for i, e in enumerate(events):
            line = {"t": e[0], "type": "down" if i == 0 else "move", "x": e[1], "y": e[2], "pressure": e[3]}
            if len(e) == 6:
                line["xtilt"], line["ytilt"] = max(-1, min(1, e[4])), max(-1, min(1, e[5]))
            f.write(json.dumps(line) + "\n")
        e = events[-1]
        f.write(json.dumps({"t": e[0], "type": "up", "x": e[1], "y": e[2], "pressure": 0}) + "\n")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mypaint', required=True)
    ap.add_argument('--brush-render', required=True)
    ap.add_argument('--quicksilver', required=True)
    ap.add_argument('--events', default=os.path.join(os.path.dirname(__file__), '../../../shared/corpus/painting30sec.dat'))
    ap.add_argument('--brushes', default='/usr/share/mypaint-data/2.0/brushes')
    ap.add_argument('--only', default='')
    ap.add_argument('--stage', choices=['precision', 'speed'], default='speed')
    ap.add_argument('--markdown')
    ap.add_argument('out')
    a = ap.parse_args()
    names = sorted(os.path.join(pack, f[:-4]) for pack in os.listdir(a.brushes) if os.path.isdir(os.path.join(a.brushes, pack))
                   for f in os.listdir(os.path.join(a.brushes, pack)) if f.endswith('.myb'))
    names = [n for n in names if n.startswith(a.only)]
    done = set()
    if os.path.exists(a.out):
        done = {line.split('\t')[0] for line in open(a.out)}
    tmp = tempfile.mkdtemp(prefix='brush-table-')
    ref, ours, jsonl = os.path.join(tmp, 'ref.png'), os.path.join(tmp, 'ours.png'), os.path.join(tmp, 'replay.jsonl')
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
                    _, stdout = run([a.brush_render, myb, COLOR, a.events, ours, '--precision', precision, '--psnr', ref,
                                     '--under'] + UNDER)
                    row.append(f'{psnr(stdout):.2f}')
            else:
                theirs = min(run([a.mypaint, myb, COLOR, a.events, ref])[0] for _ in range(2))
                replay(a.events, name, myb, COLOR, jsonl)
                mine = min(run([a.quicksilver, 'render', jsonl, '-o', ours])[0] for _ in range(2))
                _, stdout = run([a.brush_render, '--compare', ours, ref])
                row = [name, f'{psnr(stdout):.2f}', f'{theirs:.3f}', f'{mine:.3f}', f'{mine / theirs:.3f}']
            out.write('\t'.join(row) + '\n')
            out.flush()
            print('\t'.join(row), flush=True)
    if a.markdown and a.stage == 'speed':
        markdown(a.out, a.markdown, a.events)

def markdown(tsv, doc, events):
    rows = [line.rstrip('\n').split('\t') for line in open(tsv) if line.strip()]
    rows.sort(key=lambda r: r[0])
    ratios = sorted(float(r[4]) for r in rows)
    median = ratios[len(ratios) // 2] if len(ratios) % 2 else (ratios[len(ratios) // 2 - 1] + ratios[len(ratios) // 2]) / 2
    low = [r for r in rows if float(r[1]) < 40]
    out = [f'{len(rows)} brushes, {os.path.basename(events)}, `#3060c0` on a blank 1024x768 canvas, {time.strftime("%Y-%m-%d")}: '
           f'median time ratio **{median:.2f}** (quicksilver render ÷ libmypaint, whole processes, the better of two runs each); '
           f'{len(rows) - len(low)} at 40 dB or more, {len(low)} below.', '',
           '| brush | PSNR (dB) | libmypaint (s) | quicksilver render (s) | ratio |', '|---|---:|---:|---:|---:|']
    for r in rows:
        db = 'identical' if r[1] == 'inf' else r[1]
        out.append(f'| {r[0]} | {db} | {r[2]} | {r[3]} | {r[4]} |')
    text = open(doc).read()
    start, end = '<!-- brush-table -->', '<!-- /brush-table -->'
    a, b = text.index(start) + len(start), text.index(end)
    open(doc, 'w').write(text[:a] + '\n' + '\n'.join(out) + '\n' + text[b:])
    print(f'median ratio {median:.3f}; {len(low)} below 40 dB: {", ".join(r[0] for r in low)}')

if __name__ == '__main__':
    main()
