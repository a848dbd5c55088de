#!/usr/bin/env python3
"""A large sampled speedscope profile and the same stacks as folded lines.

usage: gen-speedscope.py SAMPLES OUT.json OUT.folded

Deterministic (fixed seed): 4 profiles (threads) over 3000 frames, stacks
5 to 30 frames deep drawn from 20000 distinct paths, one weight a sample.
The folded file holds one line a sample, so both readers get the same
samples and the bytes each format needs for them can be compared.
"""
import random
import sys


def main(argv):
    samples, out_json, out_folded = int(argv[1]), argv[2], argv[3]
    rnd = random.Random(17)
    frames = ["fn_%d_%s" % (i, "x" * (i % 23)) for i in range(3000)]
    paths = []
    for _ in range(20000):
        depth = rnd.randint(5, 30)
        paths.append([rnd.randrange(len(frames)) for _ in range(depth)])
    per_profile = samples // 4
    with open(out_json, "w") as j, open(out_folded, "w") as f:
        j.write('{"$schema":"https://www.speedscope.app/file-format-schema.json",\n')
        j.write('"shared":{"frames":[')
        j.write(",".join('{"name":"%s"}' % n for n in frames))
        j.write(']},\n"profiles":[')
        for p in range(4):
            picks = [rnd.randrange(len(paths)) for _ in range(per_profile)]
            weights = [rnd.randint(1, 9) for _ in range(per_profile)]
            j.write('%s{"type":"sampled","name":"thread %d","unit":"nanoseconds",'
                    '"startValue":0,"endValue":%d,\n"samples":[' % ("," if p else "", p, per_profile))
            j.write(",\n".join("[%s]" % ",".join(map(str, paths[k])) for k in picks))
            j.write('],\n"weights":[')
            j.write(",".join(map(str, weights)))
            j.write("]}")
            for k, w in zip(picks, weights):
                f.write("%s %d\n" % (";".join(frames[i] for i in paths[k]), w))
        j.write("]}\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
