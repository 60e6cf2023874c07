"""BERTopic's default clustering along the size experiment's curve (results/size/size.json) on chosen corpora, on the very
draws ThemeLab measured: each draw's items are those of ThemeLab's stratified sample (its SplitMix64 generator and
apportionment, reproduced here and checked by recomputing the draw's ceiling with scipy), centred on the draw as ThemeLab
centres them, clustered by BERTopic's default (peer_clustering.bertopic), three runs per size: the first three draws
with seeds 0, 1, 2 (the one draw with those seeds at a corpus's own size). Each figure is the mean ARI over the runs over
the mean ceiling of their draws; ThemeLab's rows are read from the same draws of size.json.
usage: peer_size.py VECTORS_DIR SIZE_JSON OUT_STEM CORPUS …   (appends to OUT_STEM.md, writes OUT_STEM-size.jsonl)
       peer_size.py --experiment EXPERIMENT SIZE_JSON OUT   (the experiment the bench's ablate runs)"""
import glob, json, os, sys
import numpy as np
from scipy.cluster.hierarchy import linkage
from sklearn.metrics import adjusted_rand_score as ari
from peer_clustering import bertopic, scores

MASK = (1 << 64) - 1
DRAWS = 3
# The suggested default, the study's label-free level choosers and the published estimator, as size.json names them.
SHOWN = ["leader + kittler-illingworth", "average + percentile(90)", "leiden-silhouette", "average-modularity(2,2)",
         "spectral-k-average", "average-cohesion"]


class SplitMix64:
    """ThemeLab's SeededRandom (Steele, Lea & Flood 2014), bit for bit."""
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def permutation(count, seed):
    """SeededRandom.permutation: Fisher-Yates from the end, j = next() mod (i + 1)."""
    rng, order = SplitMix64(seed), list(range(count))
    for i in range(count - 1, 0, -1):
        j = rng.next() % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def stratified(labels, count, seed):
    """ThemeLab's stratifiedSample: floor quotas, the rest to the largest remainders (ties by a seeded rank), a seeded
    permutation's first items of each topic; ascending indices."""
    members = {}
    for i, label in enumerate(labels):
        members.setdefault(label, []).append(i)
    topics, n = sorted(members), len(labels)
    rng = SplitMix64(seed)
    rank = permutation(len(topics), rng.next())
    take = [count * len(members[t]) // n for t in topics]
    order = sorted(range(len(topics)), key=lambda a: (-(count * len(members[topics[a]]) % n), rank[a]))
    for t in order[:count - sum(take)]:
        take[t] += 1
    kept = []
    for t, label in enumerate(topics):
        kept += [members[label][i] for i in permutation(len(members[label]), rng.next())[:take[t]]]
    return sorted(kept)


def centred(u):
    c = u - u.mean(axis=0)
    return c / np.linalg.norm(c, axis=1, keepdims=True)


def ceiling(c, truth):
    """Average linkage's best cut (1 - cosine), every cut: the check that the draw is ThemeLab's."""
    z = linkage(c, method="average", metric="cosine")
    n = len(c)
    labels, best = np.arange(n), ari(truth, np.arange(n))
    for k, (a, b, _, _) in enumerate(z):
        labels[(labels == int(a)) | (labels == int(b))] = n + k
        best = max(best, ari(truth, labels))
    return best


def curve(u, truth, found, methods, seed):
    """Per size: three runs, on the first three draws (the one draw, three seeds, at the corpus's own size)."""
    rows = []
    for p in found["points"]:
        used = [r if r < len(p["ceiling"]) else 0 for r in range(DRAWS)]
        runs = []
        for run, r in enumerate(used):
            whole = p["items"] >= found["items"]
            kept = np.arange(len(u)) if whole else np.array(stratified(truth.tolist(), p["items"], seed + p["items"] * 1000 + r))
            c, t = centred(u[kept]), truth[kept]
            if run == 0 and abs(ceiling(c, t) - p["ceiling"][0]) > 1e-3:
                raise SystemExit(f"{found['corpus']} at {p['items']}: not ThemeLab's draw (ceiling {ceiling(c, t)}, {p['ceiling'][0]})")
            runs.append(scores(t, bertopic(c, run)))
        top = sum(p["ceiling"][r] for r in used)
        ours = {m: sum(p["ari"][methods.index(m)][r] or 0 for r in used) / top for m in SHOWN if m in methods}
        rows.append({"corpus": found["corpus"], "n": p["items"], "draws": len(set(used)), "ceiling_ari": top / DRAWS,
                     **{f"bertopic_{k}": sum(x[k] for x in runs) / top for k in ("one_topic", "singletons", "assigned_only")},
                     "left_out_share": sum(x["left_out_share"] for x in runs) / DRAWS, **{f"themelab {m}": v for m, v in ours.items()}})
        print(f"{found['corpus']} at {p['items']}: done", file=sys.stderr)
    return rows


def markdown(rows):
    shown = [m for m in SHOWN if any(f"themelab {m}" in r for r in rows)]
    head = ["corpus", "entries", "ceiling ARI", "BERTopic default (outliers one topic / singletons / left out, share out)"] + shown
    out = ["", "## Along the size curve", "",
           "BERTopic's default on the first three draws of each size of the size experiment (`results/size/size.json`), the "
           "same items, centred on the draw, its seed the draw's number; the ratio of the mean ARI to the mean ceiling over "
           "those draws, ThemeLab's methods on the same draws beside it. Sizes whose mean ceiling is below 0.1 show —.", "",
           "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    fmt = lambda r, v: "—" if v is None or r["ceiling_ari"] < 0.1 else f"{v:.2f}"
    for r in rows:
        cells = [r["corpus"], str(r["n"]), f"{r['ceiling_ari']:.3f}",
                 f"{fmt(r, r['bertopic_one_topic'])} / {fmt(r, r['bertopic_singletons'])} / {fmt(r, r['bertopic_assigned_only'])}, "
                 f"{r['left_out_share']:.0%}"] + [fmt(r, r.get(f"themelab {m}")) for m in shown]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def main(folder, size_path, stem, corpora):
    size = json.load(open(size_path))
    methods = [m["grouping"] + (f" + {m['rule']}" if m.get("rule") else "") for m in size["methods"]]
    rows = []
    for name in corpora:
        found = next(c for c in size["curves"] if c["corpus"] == name and c["role"] == "study")
        meta = next(m for m in glob.glob(f"{folder}/*--raw.json") if json.load(open(m))["corpus"] == name)
        rows += curve(np.load(meta[:-5] + ".npy").astype(np.float64), np.array(json.load(open(meta))["labels"]), found, methods, size["seed"])
    with open(stem + "-size.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    with open(stem + ".md", "a") as f:
        f.write(markdown(rows))


def experiment(given, size_path, out):
    """The experiment `given` with the size experiment's groupings, both spaces, its own draws only, written to `out`
    (a corpus file's path made relative to `out`'s folder)."""
    plan, size = json.load(open(given)), json.load(open(size_path))
    plan["groupings"] += [g for g in size["groupings"] if g not in plan["groupings"]]
    plan["spaces"] = ["raw", "centred"]
    for field in ("replicates", "resample"):
        plan.pop(field, None)
    for c in plan["corpora"]:
        if "path" in c:
            c["path"] = os.path.relpath(os.path.join(os.path.dirname(os.path.abspath(given)), c["path"]), os.path.dirname(os.path.abspath(out)))
    json.dump(plan, open(out, "w"))


if __name__ == "__main__":
    if sys.argv[1] == "--experiment":
        experiment(*sys.argv[2:5])
    else:
        main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
