"""The peers of Experiments/bench/peer-clustering on each corpus's centred vectors, against ThemeLab's rows of the same
run (its results JSON): every figure is an ARI on the corpus's own draw, divided by average linkage's best-threshold
ARI (the ceiling). usage: peer_clustering.py VECTORS_DIR RESULTS_JSON OUT_STEM
       peer_clustering.py --render RESULTS_JSON OUT_STEM   (the tables again from OUT_STEM.jsonl's peer lines)"""
import glob, json, statistics, sys, warnings
import numpy as np, sklearn, umap
from sklearn.cluster import HDBSCAN, MiniBatchKMeans
from sklearn.metrics import adjusted_rand_score as ari

SEEDS = [0, 1, 2]
warnings.filterwarnings("ignore", message="n_jobs value")  # a seeded UMAP runs on one thread, as intended
# ThemeLab's suggested default, the rows indistinguishable from it or close, and the label-free level choosers.
THEMELAB = [("leader", "kittler-illingworth"), ("average", "kittler-illingworth"), ("average", "percentile(90)"),
            ("average", "silhouette"), ("average-modularity(2,2)", None), ("leiden-sqrt(0.75,1.5)", None),
            ("average-stability", None), ("leiden-silhouette", None), ("spectral-k-average", None), ("spectral-k-kmeans", None),
            ("average-cohesion", None), ("leiden-cohesion", None)]


def column(grouping, rule):
    """A ThemeLab row's name: the grouping, and its threshold rule when it has one."""
    return grouping + (f" + {rule}" if rule else "")


def bertopic(x, seed):
    """BERTopic 0.17's default clustering: UMAP then HDBSCAN with its parameters."""
    reduced = umap.UMAP(n_neighbors=15, n_components=5, min_dist=0.0, metric="cosine", random_state=seed).fit_transform(x)
    return HDBSCAN(min_cluster_size=10, metric="euclidean", cluster_selection_method="eom", copy=True).fit_predict(reduced)


def kmeans(x, k, seed):
    return MiniBatchKMeans(n_clusters=k, batch_size=500, n_init="auto", random_state=seed).fit_predict(x)


def singletons(labels):
    out, next_label = labels.copy(), labels.max() + 1
    for i in np.where(labels < 0)[0]:
        out[i], next_label = next_label, next_label + 1
    return out


def scores(truth, labels):
    kept = labels >= 0
    return {"one_topic": ari(truth, labels), "singletons": ari(truth, singletons(labels)),
            "left_out_share": float(1 - kept.mean()), "assigned_only": ari(truth[kept], labels[kept]) if kept.any() else 0.0}


def stability(run, x, seed_runs):
    pairs = [ari(a, b) for i, a in enumerate(seed_runs) for b in seed_runs[i + 1:]]
    order = np.random.default_rng(99).permutation(len(x))
    shuffled = np.empty_like(seed_runs[0])
    shuffled[order] = run(x[order], SEEDS[0])
    return {"seeds": float(np.mean(pairs)), "order": float(ari(seed_runs[0], shuffled))}


def peer_rows(x, truth):
    k = int(truth.max()) + 1
    rows = {}
    for name, run in [("bertopic-default", bertopic), ("kmeans-true-k", lambda v, s: kmeans(v, k, s))]:
        runs = [run(x, s) for s in SEEDS]
        each = [scores(truth, r) for r in runs]
        rows[name] = {key: statistics.median(e[key] for e in each) for key in each[0]}
        rows[name]["stability"] = stability(run, x, runs)
        rows[name]["groups"] = statistics.median(len(set(r[r >= 0])) for r in runs)
    return rows


def themelab_rows(results):
    """ThemeLab's figures by (corpus, vector source), for the analyses with a centred space and an average ceiling."""
    out = {}
    for a in results["analyses"]:
        space = next((s for s in a["spaces"] if s["space"] == "centred"), None)
        ceiling = next((c["ari"] for c in space["ceilings"] if c["grouping"] == "average"), None) if space else None
        if ceiling is None:
            continue
        found = {(g["grouping"], g.get("rule")): g["recovery"]["ari"] for g in space["groupings"] if "recovery" in g}
        out[(a["corpus"]["name"], a["source"])] = {
            "ceiling": ceiling, "topics": a["corpus"]["topics"], "items": a["corpus"]["items"], "source": a["source"],
            **{column(g, r): found.get((g, r)) for g, r in THEMELAB}}
    return out


def main(folder, results_path, stem):
    ours = themelab_rows(json.load(open(results_path)))
    lines = []
    for meta in sorted(glob.glob(f"{folder}/*--centred.json")):
        about = json.load(open(meta))
        if about.get("labels") is None or (about["corpus"], about["source"]) not in ours:
            continue
        x = np.load(meta[:-5] + ".npy")
        lines.append({"corpus": about["corpus"], "source": about["source"], "peers": peer_rows(x, np.array(about["labels"]))})
        print(f"{about['corpus']}: done", file=sys.stderr)
    write(lines, ours, stem)


def render(results_path, stem):
    """The tables again from STEM.jsonl's peer lines and the results JSON, without running the peers."""
    peers = {}
    for line in open(stem + ".jsonl"):
        d = json.loads(line)
        if d["peer"] != "themelab":
            peers.setdefault((d["corpus"], d["source"]), {})[d["peer"]] = {
                "one_topic": d["ari_one_topic"], "singletons": d["ari_singletons"], "assigned_only": d["ari_assigned_only"],
                "left_out_share": d["left_out_share"], "groups": d["groups"],
                "stability": {"seeds": d["stability_seeds"], "order": d["stability_order"]}}
    write([{"corpus": c, "source": s, "peers": p} for (c, s), p in peers.items()], themelab_rows(json.load(open(results_path))), stem)


def write(lines, ours, stem):
    lines = sorted(({**row, **ours[(row["corpus"], row["source"])]} for row in lines), key=lambda r: (r["corpus"], r["source"]))
    with open(stem + ".jsonl", "w") as f:
        for line in flat(lines):
            f.write(json.dumps(line, sort_keys=True) + "\n")
    with open(stem + ".md", "w") as f:
        f.write(markdown(lines))


def flat(lines):
    """One line per corpus and method, numbers and strings only (results/bench's line schema)."""
    for r in lines:
        base = {"corpus": r["corpus"], "source": r["source"], "ceiling_ari": r["ceiling"], "topics": r["topics"], "n": r["items"]}
        for name in (column(g, rule) for g, rule in THEMELAB):
            if r[name] is not None:
                yield {**base, "peer": "themelab", "mode": name, "ari": r[name]}
        for peer, figures in r["peers"].items():
            yield {**base, "peer": peer, **{f"stability_{k}": v for k, v in figures["stability"].items()},
                   **{("ari_" + k if k != "left_out_share" and k != "groups" else k): v for k, v in figures.items() if k != "stability"}}


def ratio(value, ceiling):
    return "—" if value is None or ceiling < 0.1 else f"{value / ceiling:.2f}"


def markdown(lines):
    names = [column(g, r) for g, r in THEMELAB]
    head = ["corpus", "topics", "ceiling ARI"] + names + ["BERTopic default (outliers one topic / singletons / left out, share out)",
                                                          "k-means at true k (label-informed)", "stability: BERTopic seeds / order",
                                                          "stability: k-means seeds / order"]
    out = [f"# Peers side by side (numpy {np.__version__}, scikit-learn {sklearn.__version__}, umap-learn {umap.__version__})", "",
           "Ratio of each method's ARI to average linkage's best threshold (the ceiling) on the corpus's own draw, centred "
           "space; peers: median of 3 seeds. Corpora whose ceiling is below 0.1 show —.", "",
           "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in lines:
        c, b, k = r["ceiling"], r["peers"]["bertopic-default"], r["peers"]["kmeans-true-k"]
        cells = [r["corpus"], str(r["topics"]), f"{c:.3f}"] + [ratio(r[n], c) for n in names]
        cells += [f"{ratio(b['one_topic'], c)} / {ratio(b['singletons'], c)} / {ratio(b['assigned_only'], c)}, "
                  f"{b['left_out_share']:.0%}", ratio(k["one_topic"], c),
                  f"{b['stability']['seeds']:.2f} / {b['stability']['order']:.2f}",
                  f"{k['stability']['seeds']:.2f} / {k['stability']['order']:.2f}"]
        out.append("| " + " | ".join(cells) + " |")
    scored = [r for r in lines if r["ceiling"] >= 0.1]

    def worst(value):
        ratios = [(value(r), r["corpus"]) for r in scored if value(r) is not None]
        low = min(((v / r_ceiling(c), c) for v, c in ratios), default=None)
        return f"**{low[0]:.2f}** ({low[1]})" if low else "—"

    def r_ceiling(corpus):
        return next(r["ceiling"] for r in scored if r["corpus"] == corpus)
    peers = lambda r, name, key: r["peers"][name][key]
    out.append("| **worst case** | | | " + " | ".join(worst(lambda r, n=n: r[n]) for n in names)
               + f" | {worst(lambda r: peers(r, 'bertopic-default', 'one_topic'))} / "
               + f"{worst(lambda r: peers(r, 'bertopic-default', 'singletons'))} / "
               + f"{worst(lambda r: peers(r, 'bertopic-default', 'assigned_only'))} | "
               + f"{worst(lambda r: peers(r, 'kmeans-true-k', 'one_topic'))} | | |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    render(*sys.argv[2:4]) if sys.argv[1] == "--render" else main(*sys.argv[1:4])
